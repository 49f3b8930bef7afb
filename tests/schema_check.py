"""A small JSON Schema validator: the subset docs/result.schema.json uses
(type, const, enum, properties, required, additionalProperties, items,
minItems, maxItems, minLength, minimum, oneOf, $ref to #/$defs/...), so
that make test needs no package beyond python3.

  validate(instance, schema) -> list of "path: what is wrong" strings (empty: valid)"""

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is_type(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def _check(value, schema, root, path, errors):
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"unsupported $ref {ref}")
        return _check(value, root["$defs"][ref[len("#/$defs/"):]], root, path, errors)
    known = {"$schema", "$id", "title", "description", "$defs", "type", "const", "enum", "properties", "required",
             "additionalProperties", "items", "minItems", "maxItems", "minLength", "minimum", "oneOf"}
    unknown = set(schema) - known
    if unknown:
        raise ValueError(f"unsupported keywords {sorted(unknown)} at {path}")
    if "type" in schema and not _is_type(value, schema["type"]):
        errors.append(f"{path}: {value!r:.80} is not of type {schema['type']}")
        return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r:.80} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r:.80} is not one of {schema['enum']}")
    if "minLength" in schema and isinstance(value, str) and len(value) < schema["minLength"]:
        errors.append(f"{path}: {value!r} is shorter than {schema['minLength']}")
    if "minimum" in schema and _is_type(value, "number") and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below {schema['minimum']}")
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not _errors(value, s, root, path)]
        if len(matching) != 1:
            errors.append(f"{path}: {value!r:.120} matches {len(matching)} of the oneOf schemas, not 1")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing {name!r}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, v in value.items():
            if name in props:
                _check(v, props[name], root, f"{path}.{name}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected field {name!r}")
            elif isinstance(extra, dict):
                _check(v, extra, root, f"{path}.{name}", errors)
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if "items" in schema:
            for i, v in enumerate(value):
                _check(v, schema["items"], root, f"{path}[{i}]", errors)


def _errors(value, schema, root, path):
    errors = []
    _check(value, schema, root, path, errors)
    return errors


def validate(instance, schema):
    """The ways instance breaks schema (an empty list when it is valid)."""
    return _errors(instance, schema, schema, "$")
