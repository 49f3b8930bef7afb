# gpubmc build.  `make` builds build/gpubmc; `make test` runs every test.
CC      ?= cc
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(CFLAGS) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I.
LDLIBS  = -lcadical -lstdc++ -lm -lcjson
BUILD  ?= build

LIB_SRC  = $(wildcard litmus/*.c encoders/*.c models/*.c) $(filter-out bmc/main.c,$(wildcard bmc/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/bmc/main.o
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
HEADERS  = $(wildcard litmus/*.h encoders/*.h models/*.h bmc/*.h)

.PHONY: all test unit litmus-tests corpus clean install sanitize bench deps example

all: $(BUILD)/gpubmc

$(BUILD)/gpubmc: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

clean:
	rm -rf build build-asan

# Address and undefined-behaviour sanitizers, in build-asan/.
sanitize:
	$(MAKE) BUILD=build-asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDLIBS="$(LDLIBS) -fsanitize=address,undefined"
