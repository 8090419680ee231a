#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that Documentation/netlink/specs/mrc.yaml says what
uapi/linux/mrc.h says: every enum, attribute set and command, with the
same names in the same order (so the same values), the multicast group,
the family name and version. Usage: check_spec.py SPEC HEADER
Prints every difference; exit status 1 if there is any."""
import re
import sys

import yaml


def c_enums(text):
    """enum name -> [(ENTRY, value)] from a C header (no expressions)."""
    enums = {}
    for m in re.finditer(r"^enum (\w+) \{(.*?)^\};", text, re.S | re.M):
        value, entries = 0, []
        for line in m.group(2).split("\n"):
            line = line.split("/*")[0].strip().rstrip(",")
            if not line:
                continue
            name, _, expr = line.partition("=")
            name = name.strip()
            if expr:
                expr = expr.strip()
                if not expr.isdigit():  # FOO_MAX = __FOO_MAX - 1
                    continue
                value = int(expr)
            if name.startswith("__"):
                continue
            entries.append((name, value))
            value += 1
        enums[m.group(1)] = entries
    return enums


def c_name(prefix, name):
    return (prefix + name).upper().replace("-", "_")


def main():
    spec = yaml.safe_load(open(sys.argv[1]))
    header = open(sys.argv[2]).read()
    enums = c_enums(header)
    errors = []
    covered = set()

    def compare(what, cenum, want):
        covered.add(cenum)
        have = enums.get(cenum)
        if have is None:
            errors.append("%s: enum %s is not in the header" % (what, cenum))
            return
        if have != want:
            hn = dict(have)
            wn = dict(want)
            for n in sorted(set(hn) | set(wn), key=lambda n: hn.get(n, wn.get(n))):
                if hn.get(n) != wn.get(n):
                    errors.append("%s: %s is %s in the header, %s in the spec"
                                  % (what, n, hn.get(n, "absent"), wn.get(n, "absent")))

    for d in spec.get("definitions", []):
        if d.get("type") != "enum":
            continue
        want = [(c_name(d["name-prefix"], e), i) for i, e in enumerate(d["entries"])]
        compare("definition " + d["name"], d["enum-name"], want)

    for s in spec["attribute-sets"]:
        want, value = [], 0
        for a in s["attributes"]:
            value = a.get("value", value)
            want.append((c_name(s["name-prefix"], a["name"]), value))
            value += 1
            if a["type"] == "nest" and "nested-attributes" in a:
                if a["nested-attributes"] not in [x["name"] for x in spec["attribute-sets"]]:
                    errors.append("attribute %s nests unknown set %s"
                                  % (a["name"], a["nested-attributes"]))
        compare("attribute set " + s["name"], s["enum-name"], want)

    ops = spec["operations"]
    want = [(c_name(ops["name-prefix"], o["name"]), i) for i, o in enumerate(ops["list"])]
    compare("operations", "mrc_cmd", want)
    sets = {s["name"]: [a["name"] for a in s["attributes"]] for s in spec["attribute-sets"]}
    for o in ops["list"]:
        for kind in ("do", "dump", "event"):
            part = o.get(kind)
            if not part:
                continue
            for sub in ("request", "reply"):
                attrs = part.get(sub, {}).get("attributes", []) if sub in part else []
                if kind == "event" and sub == "request":
                    attrs = part.get("attributes", [])
                for a in attrs:
                    if a not in sets[o["attribute-set"]]:
                        errors.append("operation %s uses unknown attribute %s" % (o["name"], a))

    for define, key in (("MRC_GENL_NAME", "name"),):
        m = re.search(r"#define %s\s+\"(\w+)\"" % define, header)
        if not m or m.group(1) != spec[key]:
            errors.append("family name differs: header %s, spec %s"
                          % (m and m.group(1), spec[key]))
    m = re.search(r"#define MRC_GENL_MCGRP_EVENTS\s+\"(\w+)\"", header)
    groups = [g["name"] for g in spec["mcast-groups"]["list"]]
    if not m or groups != [m.group(1)]:
        errors.append("multicast groups differ: header %s, spec %s" % (m and m.group(1), groups))

    # Every attribute enum and the command enum are described (the header
    # also holds socket API enums, which are not the family's).
    for name in enums:
        if (name.endswith("_attr") or name == "mrc_cmd") and name not in covered:
            errors.append("enum %s of the header is missing from the spec" % name)

    for e in errors:
        print("netlink spec: " + e)
    if not errors:
        print("netlink spec: %d enums and attribute sets match the header" % len(covered))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
