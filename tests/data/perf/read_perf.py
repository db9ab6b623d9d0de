#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reads perf JSON files the way the vendor's example reader does (HorizonRobotics OE-Skills `hbm-perf.md`, as
../shared/domain/s100-facts.md gives its paths), written from that description alone, not from BpuScope's
writer. Exits 1 naming the file and the path on a missing key (KeyError) or a value of another type.

    /usr/bin/python3 tests/data/perf/read_perf.py PERF.json...

Prints one line per file: FPS, latency (us), the segments' sum, min memory requirement, layers, origin ops,
BPU core number, original conv ops.
"""

import json
import numbers
import sys


def need(cond, f, path, value):
    if not cond:
        raise TypeError(f"{f}: {path} has the wrong type: {value!r}")


def read(f):
    with open(f) as h:
        doc = json.load(h)
    summary = doc["summary"]
    perf = summary["performance"]
    for key in ("FPS", "latency (us)", "latency (ms)"):
        need(isinstance(perf[key], numbers.Real), f, f"performance.{key}", perf[key])
    segments = perf["latency (us) by segments"]
    need(isinstance(segments, list) and all(isinstance(s, numbers.Real) for s in segments), f,
         "performance.latency (us) by segments", segments)
    ddr = summary["DDR access data"]
    for key in ("DDR megabytes per run", "loaded bytes per run", "stored bytes per run", "min memory requirement"):
        need(isinstance(ddr[key], numbers.Real), f, f"DDR access data.{key}", ddr[key])
    layers = summary["layer details"]
    need(isinstance(layers, list), f, "layer details", layers)
    origin = 0
    for i, layer in enumerate(layers):
        for key in ("layer name", "active period of time", "computing cost (no DDR)", "load cost", "store cost"):
            need(isinstance(layer[key], str), f, f"layer details[{i}].{key}", layer[key])
        need(isinstance(layer["origin ops"], int) and not isinstance(layer["origin ops"], bool), f,
             f"layer details[{i}].origin ops", layer["origin ops"])
        origin += layer["origin ops"]
    info = summary["model info"]
    need(isinstance(info["BPU march"], str), f, "model info.BPU march", info["BPU march"])
    for key in ("BPU core number", "double int8 macs", "original conv ops"):
        need(isinstance(info[key], int) and not isinstance(info[key], bool), f, f"model info.{key}", info[key])
    return (f"{f}: FPS {perf['FPS']:.1f} latency {perf['latency (us)']:.1f} us segments {sum(segments):.1f} us "
            f"min memory {ddr['min memory requirement']} layers {len(layers)} origin ops {origin} "
            f"cores {info['BPU core number']} convs {info['original conv ops']}")


def main(files):
    for f in files:
        try:
            print(read(f))
        except (KeyError, TypeError, ValueError) as e:
            print(f"{f}: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
