#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""validate_schema.py SCHEMA FILE... - validate JSON files against a JSON
Schema (Debian's python3-jsonschema); prints each problem, exits 1 on any."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    for err in sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in err.path) or "(top)"
        print(f"{path}: {where}: {err.message}")
        bad += 1
sys.exit(1 if bad else 0)
