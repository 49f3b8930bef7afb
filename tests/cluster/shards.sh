#!/bin/sh
# Checks a batch in N shards at once on this machine, or over ssh, and
# merges the results: each shard is one gpubmc run with --shard K/N --json
# writing OUTDIR/shard-K.jsonl (its stderr beside it, .err); then
# merge.py prints one summary and exits as one run would.
#
#   tests/cluster/shards.sh N OUTDIR GPUBMC [ARG]...
#
# GNU parallel runs the shards when it is installed (set PARALLEL_OPTS to,
# for instance, "--sshloginfile hosts --workdir ." to spread them over
# machines that share this directory); otherwise xargs -P does, locally.
# ARGs are gpubmc's (files, directories, --expect CSV, --bound, -j ...),
# without --json or --shard.  Arguments with spaces are not supported.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 N OUTDIR GPUBMC [ARG]..." >&2
    exit 2
fi
n=$1 out=$2 bin=$3
shift 3
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
one="$bin --json --shard {}/$n $* > $out/shard-{}.jsonl 2> $out/shard-{}.err"
if command -v parallel >/dev/null 2>&1; then
    echo "shards.sh: $n shards through GNU parallel" >&2
    # shellcheck disable=SC2086
    seq 1 "$n" | parallel ${PARALLEL_OPTS:-} "$one" || true
else
    echo "shards.sh: $n shards through xargs -P (GNU parallel is not installed)" >&2
    seq 1 "$n" | xargs -P "$n" -I {} sh -c "$one" || true
fi
exec python3 "$here/merge.py" "$out"/shard-*.jsonl
