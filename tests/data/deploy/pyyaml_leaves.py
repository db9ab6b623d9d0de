#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reads hb_compile YAML configs as hb_compile does (PyYAML's safe_load, YAML 1.1) and prints every leaf as
one JSON line: {"file", "path": [[key type, key], ...], "type": value type, "value": value as text}.

Run with Debian's interpreter (python3-yaml):

    /usr/bin/python3 tests/data/deploy/pyyaml_leaves.py CONFIG.yaml...

tests/core/tst_yaml_readers.cpp compares the lines with what yaml-cpp reads, field by field: a key PyYAML
reads as a bool (`ON:` -> True) or a value it reads as a date, a bool or null shows here by its type. A file
PyYAML rejects prints {"file", "error"}.
"""

import json
import sys

import yaml


def leaves(node, path, out):
    if isinstance(node, dict):
        for k, v in node.items():
            leaves(v, path + [[type(k).__name__, str(k)]], out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            leaves(v, path + [["index", str(i)]], out)
    else:
        out.append({"path": path, "type": type(node).__name__,
                    "value": node if isinstance(node, str) else repr(node)})


def main(files):
    for f in files:
        try:
            with open(f, "rb") as h:
                doc = yaml.safe_load(h)
        except yaml.YAMLError as e:
            print(json.dumps({"file": f, "error": str(e)}))
            continue
        out = []
        leaves(doc, [], out)
        for leaf in out:
            leaf["file"] = f
            print(json.dumps(leaf))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
