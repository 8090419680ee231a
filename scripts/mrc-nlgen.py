#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the code of the "mrc" generic netlink family from its spec.

Documentation/netlink/specs/mrc.yaml is the one source of the family. From
it this script writes:

  uapi/linux/mrc.h               the family's constants and enums, between
                                 the GENERATED BEGIN and END markers (the
                                 rest of the header is hand-written)
  kmod/mrc_genl_spec.c, .h       the kernel's attribute policies (strict,
                                 per command, down to nested objects), the
                                 operations table, the multicast groups and
                                 the family (for Linux 6.1's genl_ops)
  selftests/tools/mrc_nlconst.py the same constants for python tests

Usage:
  mrc-nlgen.py            rewrite every output from the spec
  mrc-nlgen.py --check    write nothing; print a diff and exit 1 if any
                          committed output differs from what the spec
                          gives (CI: scripts/lint-kernel.sh, CTest)
  --root DIR              the tree to read the spec from and write or
                          check the outputs in (default: this script's)

The generated files are committed, so building the module never needs
python. The spec's format follows the kernel's genetlink-legacy YAML specs
(Documentation/netlink/genetlink-legacy.yaml upstream), with the few keys
this family needs, described in Documentation/netlink/README.md.
"""
import argparse
import difflib
import os
import sys
import textwrap

import yaml

SPEC = "Documentation/netlink/specs/mrc.yaml"
UAPI = "uapi/linux/mrc.h"
KSRC = "kmod/mrc_genl_spec.c"
KHDR = "kmod/mrc_genl_spec.h"
PYMOD = "selftests/tools/mrc_nlconst.py"

BEGIN = ("/* GENERATED BEGIN (scripts/mrc-nlgen.py) */\n"
         "/*\n"
         " * From here to GENERATED END, generated from\n"
         " * Documentation/netlink/specs/mrc.yaml: do not edit by hand; edit the\n"
         " * spec and run \"make netlink-gen\".\n"
         " */\n")
END = "/* GENERATED END */\n"

NLA_TYPES = {"u8": "NLA_U8", "u16": "NLA_U16", "u32": "NLA_U32", "u64": "NLA_U64",
             "s8": "NLA_S8", "s16": "NLA_S16", "s32": "NLA_S32", "s64": "NLA_S64",
             "flag": "NLA_FLAG", "string": "NLA_NUL_STRING", "binary": "NLA_BINARY"}
# NLA_POLICY_MIN/MAX/RANGE keep their bounds in s16 fields on 6.1.
S16_MIN, S16_MAX = -32768, 32767


class SpecError(Exception):
    """The spec says something this generator cannot turn into code."""


def cname(*parts):
    """C name of spec names: "mrc-a-", "plane" -> MRC_A_PLANE."""
    return "".join(parts).upper().replace("-", "_")


def lname(*parts):
    """lower-case C identifier of spec names."""
    return "_".join(parts).lower().replace("-", "_")


class Spec:
    """The spec, loaded and indexed, with every value assigned."""

    def __init__(self, text):
        self.y = yaml.safe_load(text)
        self.family = self.y["name"]
        self.consts = {}      # spec name -> (C name, value)
        self.enums = {}       # spec name -> definition
        for d in self.y.get("definitions", []):
            if d["type"] == "const":
                self.consts[d["name"]] = (cname(self.family, "-", d["name"]), d["value"])
            elif d["type"] == "enum":
                d["_entries"] = [e if isinstance(e, dict) else {"name": e}
                                 for e in d["entries"]]
                self.enums[d["name"]] = d
            else:
                raise SpecError("definition %s: unknown type %s" % (d["name"], d["type"]))
        self.sets = {s["name"]: s for s in self.y["attribute-sets"]}
        for s in self.y["attribute-sets"]:
            if "subset-of" in s:
                base = self.sets.get(s["subset-of"])
                if base is None or "subset-of" in base:
                    raise SpecError("set %s: subset of unknown set %s"
                                    % (s["name"], s["subset-of"]))
                battrs = {a["name"]: a for a in base["attributes"]}
                attrs = []
                for a in s["attributes"]:
                    if a["name"] not in battrs:
                        raise SpecError("set %s: %s is not an attribute of %s"
                                        % (s["name"], a["name"], base["name"]))
                    attrs.append(dict(battrs[a["name"]], **a))
                s["_attrs"] = attrs
                s["_base"] = base
            else:
                value = 0
                for a in s["attributes"]:
                    value = a.get("value", value)
                    a["_value"] = value
                    value += 1
                    if a["type"] == "nest" and "nested-attributes" in a \
                            and a["nested-attributes"] not in self.sets:
                        raise SpecError("attribute %s of %s nests unknown set %s"
                                        % (a["name"], s["name"], a["nested-attributes"]))
                s["_attrs"] = s["attributes"]
                s["_base"] = s
        self.ops = self.y["operations"]
        for i, o in enumerate(self.ops["list"]):
            o["_value"] = i
        self.groups = self.y.get("mcast-groups", {}).get("list", [])

    # -- names -------------------------------------------------------------

    def attr_c(self, s, a):
        return cname(s["_base"]["name-prefix"], a["name"])

    def set_max(self, s):
        return cname(s["_base"]["name-prefix"], "max")

    def enum_cnt(self, d):
        return cname(d.get("enum-cnt-name", "--" + d["name-prefix"] + "max"))

    def op_c(self, o):
        return cname(self.ops["name-prefix"], o["name"])

    def value(self, v):
        """A check's bound: (C text, number); a name is a const of the spec."""
        if isinstance(v, int):
            return str(v), v
        if v in self.consts:
            return self.consts[v]
        raise SpecError("unknown constant %s" % v)


# ---- comments ---------------------------------------------------------------

def kdoc_lines(head, text, first="", width=80):
    """Lines of a kernel-doc entry "head: text" wrapped to width, the
    continuation lines indented by a tab (counted as 8 columns)."""
    words = " ".join(str(text).split())
    lines = textwrap.wrap(head + words, width - 3, break_on_hyphens=False,
                          break_long_words=False)
    out = [first + " * " + lines[0]]
    if len(lines) > 1:
        rest = textwrap.wrap(" ".join(lines[1:]), width - 3 - 8, break_on_hyphens=False,
                             break_long_words=False)
        out += [" *\t" + line for line in rest]
    return out


def desc_lines(head, text, width=80):
    """A kernel-doc block's first line ("enum x - text") and its wrapped
    continuation, each line starting with " * "."""
    words = " ".join(str(text).split())
    return [" * " + line for line in textwrap.wrap(head + words, width - 3,
                                                  break_on_hyphens=False,
                                                  break_long_words=False)]


def define(name, value):
    """#define NAME<tabs>VALUE, the value at column 32 when it fits."""
    tabs = max(1, (32 - len("#define " + name) + 7) // 8)
    return "#define %s%s%s\n" % (name, "\t" * tabs, value)


# ---- uapi/linux/mrc.h -------------------------------------------------------

def c_enum(name, doc, entries, cnt=None, cnt_doc=None, max_name=None, max_doc=None):
    """A documented C enum: entries are (C name, doc)."""
    out = ["/**"] + desc_lines("enum %s - " % name, doc)
    for n, d in entries:
        out += kdoc_lines("@%s: " % n, d)
    if cnt:
        out += kdoc_lines("@%s: " % cnt, cnt_doc)
    if max_name:
        out += kdoc_lines("@%s: " % max_name, max_doc)
    out += [" */", "enum %s {" % name]
    out += ["\t%s," % n for n, _ in entries]
    if cnt:
        out += ["", "\t%s%s" % (cnt, "," if max_name else "")]
    if max_name:
        out += ["\t%s = %s - 1" % (max_name, cnt)]
    out += ["};", ""]
    return "\n".join(out) + "\n"


def gen_uapi(sp):
    """The generated part of uapi/linux/mrc.h (markers included)."""
    y = sp.y
    out = [BEGIN, "\n", "/* Generic netlink family. */\n"]
    out.append(define(cname(y["c-family-name"]), '"%s"' % y["name"]))
    out.append(define(cname(y["c-version-name"]), str(y["version"])))
    for g in sp.groups:
        out.append(define(cname(g["c-define-name"]), '"%s"' % g["name"]))
    out.append("\n")
    for d in y.get("definitions", []):
        if d["type"] == "const":
            n, v = sp.consts[d["name"]]
            text = "/** %s - %s */" % (n, " ".join(d["doc"].split()))
            if len(text) <= 80:
                out.append(text + "\n")
            else:
                out.append("\n".join(["/**"] + desc_lines("%s - " % n, d["doc"]) + [" */"]) + "\n")
            out.append(define(n, '"%s"' % v if isinstance(v, str) else str(v)))
            out.append("\n")
            continue
        entries = [(cname(d["name-prefix"], e["name"]), e["doc"]) for e in d["_entries"]]
        cnt = sp.enum_cnt(d)
        mx = cname(d["name-prefix"], "max") if d.get("render-max") else None
        out.append(c_enum(d["enum-name"], d["doc"], entries, cnt, "number of values.",
                          mx, "highest value."))
    ops = sp.ops
    entries = [(sp.op_c(o), o["doc"]) for o in ops["list"]]
    out.append(c_enum(ops["enum-name"], ops["doc"], entries,
                      cname("--" + ops["name-prefix"], "max"), "number of commands.",
                      cname(ops["name-prefix"], "max"), "highest command."))
    for s in y["attribute-sets"]:
        if "subset-of" in s:
            continue
        for i, a in enumerate(s["attributes"]):
            if a["_value"] != i:
                raise SpecError("set %s: values must count up from 0 (%s)"
                                % (s["name"], a["name"]))
        entries = [(sp.attr_c(s, a), a["doc"]) for a in s["attributes"]]
        out.append(c_enum(s["enum-name"], s["doc"], entries,
                          cname("--" + s["name-prefix"], "max"), "number of attributes.",
                          sp.set_max(s), "highest attribute."))
    out.append(END)
    return "".join(out)


def splice_uapi(header, block):
    """The header with its generated part replaced by block."""
    start = header.find(BEGIN.split("\n")[0])
    end = header.find(END)
    if start < 0 or end < start:
        raise SpecError("%s: no GENERATED BEGIN/END markers" % UAPI)
    return header[:start] + block + header[end + len(END):]


# ---- kmod/mrc_genl_spec.[ch] ---------------------------------------------------

KERNEL_HEAD = """\
/*
 * MRC for Linux: the generic netlink family "mrc" as the kernel sees it,
 * GENERATED by scripts/mrc-nlgen.py from Documentation/netlink/specs/mrc.yaml:
 * do not edit by hand; edit the spec and run "make netlink-gen".
"""


class Policies:
    """The policies of the requests of every operation, nested ones first."""

    def __init__(self, sp):
        self.sp = sp
        self.nested = []        # set names, each once, dependencies first
        self.ranges = []        # (C name, min, max) of FULL_RANGE checks
        self.lines = []

    def policy_name(self, setname):
        return "mrc_genl_%s_policy" % lname(setname)

    def entry(self, s, a, nested_of):
        """The nla_policy initializer of attribute a of set s."""
        sp = self.sp
        t = a["type"]
        checks = a.get("checks", {})
        if t == "nest":
            sub = nested_of.get(a["name"], a.get("nested-attributes"))
            if sub is None:
                raise SpecError("nest %s of %s has no nested attributes" % (a["name"], s["name"]))
            self.need(sub)
            return "NLA_POLICY_NESTED(%s)" % self.policy_name(sub)
        nla = NLA_TYPES.get(t)
        if nla is None:
            raise SpecError("attribute %s: type %s has no policy" % (a["name"], t))
        if "validate-fn" in checks:
            return "NLA_POLICY_VALIDATE_FN(%s, %s)" % (nla, checks["validate-fn"])
        if t == "binary" and "exact-len" in checks:
            return "NLA_POLICY_EXACT_LEN(%s)" % sp.value(checks["exact-len"])[0]
        if t == "string" and "max-len" in checks:
            return "{ .type = %s, .len = %s }" % (nla, sp.value(checks["max-len"])[0])
        lo = sp.value(checks["min"]) if "min" in checks else None
        hi = sp.value(checks["max"]) if "max" in checks else None
        if hi is None and "enum" in a:
            hi = ("%s - 1" % sp.enum_cnt(sp.enums[a["enum"]]),
                  len(sp.enums[a["enum"]]["_entries"]) - 1)
        if lo is None and hi is None:
            return "{ .type = %s }" % nla
        if any(b is not None and not S16_MIN <= b[1] <= S16_MAX for b in (lo, hi)):
            rng = "mrc_genl_%s_%s_range" % (lname(s["_base"]["name"]), lname(a["name"]))
            if rng not in [r[0] for r in self.ranges]:
                self.ranges.append((rng, lo, hi))
            return "NLA_POLICY_FULL_RANGE(%s, &%s)" % (nla, rng)
        if lo is not None and hi is not None:
            return "NLA_POLICY_RANGE(%s, %s, %s)" % (nla, lo[0], hi[0])
        if lo is not None:
            return "NLA_POLICY_MIN(%s, %s)" % (nla, lo[0])
        return "NLA_POLICY_MAX(%s, %s)" % (nla, hi[0])

    def table(self, static, name, s, attrs, nested_of):
        """A policy array over set s holding attrs."""
        rows = []
        for a in attrs:
            if a["type"] in ("unused", "pad"):
                continue
            rows.append("\t[%s] = %s," % (self.sp.attr_c(s, a), self.entry(s, a, nested_of)))
        head = "%sconst struct nla_policy %s[%s + 1] = {" % (
            "static " if static else "", name, self.sp.set_max(s))
        return "\n".join([head] + rows + ["};", ""])

    def need(self, setname):
        """Make the policy of a nested set (and those it nests) exist."""
        if setname in self.nested:
            return
        s = self.sp.sets[setname]
        text = self.table(False, self.policy_name(setname), s, s["_attrs"], {})
        self.nested.append(setname)
        self.lines.append(text)


def op_request(sp, o):
    """(attributes, nest overrides) an operation's do and dump accept:
    6.1's genl_ops has one policy for both."""
    attrs, nested_of = [], {}
    for kind in ("do", "dump"):
        req = (o.get(kind) or {}).get("request") or {}
        for a in req.get("attributes", []):
            if a not in attrs:
                attrs.append(a)
        for a, sub in (req.get("nested-attributes") or {}).items():
            if nested_of.get(a, sub) != sub:
                raise SpecError("op %s: do and dump nest %s differently" % (o["name"], a))
            nested_of[a] = sub
    return attrs, nested_of


def handler(o, kind):
    """The handler of an operation's do or dump. With kernel-object, the
    shared one (mrc_genl.c): mrc_genl_obj_get, _set, _del (by the
    command's name) or _dump. Else the command's own: mrc_genl_<op> does it,
    mrc_genl_<object>_dump dumps (<op> without its "-get")."""
    if o[kind].get("kernel-object"):
        if kind == "dump":
            return "mrc_genl_obj_dump"
        for verb in ("get", "set", "del"):
            if o["name"].endswith("-" + verb):
                return "mrc_genl_obj_" + verb
        raise SpecError("op %s: kernel-object serves only GET, SET, DEL and dumps" % o["name"])
    if kind == "do":
        return "mrc_genl_" + lname(o["name"])
    base = o["name"][:-len("-get")] if o["name"].endswith("-get") else o["name"]
    return "mrc_genl_%s_dump" % lname(base)


def dump_hook(o, hook):
    """The function a dump's "pre" (.start) or "post" (.done) names, as in
    the kernel's YNL specs (its name, dashed), or None. 6.1's genl_ops has
    .start and .done per operation, but pre_doit and post_doit only per
    family: a do's "pre" or "post" is refused."""
    for h in ("pre", "post"):
        if (o.get("do") or {}).get(h):
            raise SpecError("op %s: do: %s is not supported (6.1 has no per-operation "
                            "pre_doit/post_doit)" % (o["name"], h))
    name = (o.get("dump") or {}).get(hook)
    return lname(name) if name else None


def objects(sp):
    """[(object, [ops])] of the commands the shared handlers serve."""
    out = {}
    for o in sp.ops["list"]:
        for kind in ("do", "dump"):
            obj = (o.get(kind) or {}).get("kernel-object")
            if obj:
                out.setdefault(obj, [])
                if o not in out[obj]:
                    out[obj].append(o)
    return list(out.items())


def width(line):
    """Columns of a line of C, tabs counted to the next multiple of 8."""
    return len(line.expandtabs(8))


def fit(line, limit=100):
    """A line of C longer than limit, broken after its last ", " that fits,
    the rest aligned with the innermost open parenthesis (checkpatch)."""
    if width(line) <= limit:
        return [line]
    for cut in range(len(line) - 2, 0, -1):
        if line[cut:cut + 2] == ", " and width(line[:cut + 1]) <= limit:
            depth, opened = 0, -1
            for i in range(cut, -1, -1):
                if line[i] == ")":
                    depth += 1
                elif line[i] == "(":
                    if depth == 0:
                        opened = i
                        break
                    depth -= 1
            if opened < 0:
                continue
            col = width(line[:opened + 1])
            indent = "\t" * (col // 8) + " " * (col % 8)
            return [line[:cut + 1]] + fit(indent + line[cut + 2:], limit)
    raise SpecError("cannot fit a line of C in %d columns: %s" % (limit, line))


def fitted(text):
    """Every line of text fitted to 100 columns."""
    return "\n".join(part for line in text.split("\n") for part in fit(line))


def gen_kernel(sp):
    """(mrc_genl_spec.c, mrc_genl_spec.h)."""
    y = sp.y
    top = sp.sets[sp.ops["list"][1]["attribute-set"]] if len(sp.ops["list"]) > 1 else None
    pol = Policies(sp)
    op_tables = []
    ops = []
    for o in sp.ops["list"]:
        if not (o.get("do") or o.get("dump")):
            continue
        s = sp.sets[o["attribute-set"]]
        top = s
        attrs, nested_of = op_request(sp, o)
        name = "mrc_%s_nl_policy" % lname(o["name"]) if attrs else "mrc_none_nl_policy"
        if attrs:
            byname = {a["name"]: a for a in s["_attrs"]}
            for a in attrs:
                if a not in byname:
                    raise SpecError("op %s: unknown attribute %s" % (o["name"], a))
            op_tables.append(pol.table(True, name, s, [byname[a] for a in attrs], nested_of))
        ops.append((o, name))
    fam = y.get("kernel-family", {})
    first = ops[0][0]

    c = ["// SPDX-License-Identifier: GPL-2.0", KERNEL_HEAD.rstrip("\n"), """\
 *
 * Every operation is validated strictly (resv_start_op covers all of
 * them): unknown attributes, attributes a command does not take and
 * trailing bytes are rejected with an extack message. Each command has
 * its own policy, down to the nested objects, so a DEL cannot carry the
 * fields of an ADD. Commands flagged uns-admin-perm in the spec require
 * CAP_NET_ADMIN in the caller's network namespace (GENL_UNS_ADMIN_PERM).
 * The handlers are hand-written (mrc_genl.c, mrc_genl_cfg.c,
 * mrc_genl_conn.c), and so are the validators the spec names.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "mrc_genl_spec.h"
"""]
    body = []
    nested_text = "\n".join(pol.lines)
    if pol.ranges:
        body.append("/* Not const: 6.1's struct nla_policy points to them without const. */")
        for rng, lo, hi in pol.ranges:
            body.append("static struct netlink_range_validation %s = {" % rng)
            if lo is not None:
                body.append("\t.min = %s," % lo[0])
            if hi is not None:
                body.append("\t.max = %s," % hi[0])
            body.append("};")
            body.append("")
    c.append("/* ---- policies of nested objects (the handlers parse with them too) ---- */\n")
    c.append("\n".join(body) + ("\n" if body else "") + nested_text)
    c.append("/* ---- policies of the requests, per command ---- */\n")
    c.append("/* Commands that take no attribute: strict validation rejects any. */")
    c.append("static const struct nla_policy mrc_none_nl_policy[%s + 1] = {};\n"
             % sp.set_max(top))
    c.append("\n".join(op_tables))
    c.append("/* ---- the family ---- */\n")
    c.append("static const struct genl_ops mrc_genl_ops[] = {")
    for o, name in ops:
        c.append("\t{")
        c.append("\t\t.cmd = %s," % sp.op_c(o))
        if o.get("do"):
            c.append("\t\t.doit = %s," % handler(o, "do"))
        if dump_hook(o, "pre"):
            c.append("\t\t.start = %s," % dump_hook(o, "pre"))
        if o.get("dump"):
            c.append("\t\t.dumpit = %s," % handler(o, "dump"))
        if dump_hook(o, "post"):
            c.append("\t\t.done = %s," % dump_hook(o, "post"))
        c.append("\t\t.policy = %s," % name)
        c.append("\t\t.maxattr = %s," % sp.set_max(sp.sets[o["attribute-set"]]))
        flags = o.get("flags", [])
        for f in flags:
            if f != "uns-admin-perm":
                raise SpecError("op %s: unknown flag %s" % (o["name"], f))
        if flags:
            c.append("\t\t.flags = GENL_UNS_ADMIN_PERM,")
        c.append("\t},")
    c.append("};\n")
    c.append("static const struct genl_multicast_group mrc_genl_mcgrps[] = {")
    for g in sp.groups:
        c.append("\t{ .name = %s, }," % cname(g["c-define-name"]))
    c.append("};\n")
    c.append("struct genl_family mrc_genl_family __ro_after_init = {")
    c.append("\t.name = %s," % cname(y["c-family-name"]))
    c.append("\t.version = %s," % cname(y["c-version-name"]))
    c.append("\t.maxattr = %s," % sp.set_max(top))
    if fam.get("netnsok"):
        c.append("\t.netnsok = true,")
    if fam.get("parallel-ops"):
        c.append("\t/* Every handler locks what it touches (kernel-family: parallel-ops). */")
        c.append("\t.parallel_ops = true,")
    c.append("\t.module = THIS_MODULE,")
    c.append("\t.ops = mrc_genl_ops,")
    c.append("\t.n_ops = ARRAY_SIZE(mrc_genl_ops),")
    c.append("\t.resv_start_op = %s," % sp.op_c(first))
    c.append("\t.mcgrps = mrc_genl_mcgrps,")
    c.append("\t.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),")
    c.append("};\n")
    objs = objects(sp)
    if objs:
        c.append("""\
/**
 * mrc_genl_obj_of() - the kind of object a command's shared handler
 *	(mrc_genl_obj_get(), _set(), _del(), _dump()) serves.
 * @cmd: the command.
 *
 * Return: the object's description, or NULL for other commands.
 */
const struct mrc_genl_obj *mrc_genl_obj_of(u8 cmd)
{
	switch (cmd) {""")
        for obj, olist in objs:
            for o in olist:
                c.append("\tcase %s:" % sp.op_c(o))
            c.append("\t\treturn &mrc_genl_%s_obj;" % lname(obj))
        c.append("""\
	default:
		return NULL;
	}
}
""")
    c.append("""\
/**
 * mrc_genl_init() - register the "mrc" generic netlink family.
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

/**
 * mrc_genl_exit() - unregister the "mrc" generic netlink family.
 */
void mrc_genl_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}""")
    src = fitted("\n".join(c)) + "\n"

    h = ["/* SPDX-License-Identifier: GPL-2.0 */", KERNEL_HEAD.rstrip("\n"), """\
 *
 * What mrc_genl_spec.c defines and what it needs from the hand-written
 * files: the nested policies, the validators the spec names, the handlers.
 */
#ifndef _MRC_GENL_SPEC_H
#define _MRC_GENL_SPEC_H

#include <linux/mrc.h>
#include <net/genetlink.h>

/* Policies of the nested objects, for the handlers to parse with. */"""]
    for setname in pol.nested:
        s = sp.sets[setname]
        h.append("extern const struct nla_policy %s[%s + 1];"
                 % (pol.policy_name(setname), sp.set_max(s)))
    fns = []
    for s in y["attribute-sets"]:
        for a in s["attributes"]:
            fn = a.get("checks", {}).get("validate-fn")
            if fn and fn not in fns:
                fns.append(fn)
    h.append("\n/* Validators the spec names (hand-written). */")
    for fn in fns:
        h.append("int %s(const struct nlattr *attr, struct netlink_ext_ack *extack);" % fn)
    h.append("\n/* Handlers (hand-written). */")
    seen = set()
    for o, _ in ops:
        for kind, args in (("do", "struct genl_info *info"),
                           ("dump", "struct netlink_callback *cb")):
            if o.get(kind) and handler(o, kind) not in seen:
                seen.add(handler(o, kind))
                h.append("int %s(struct sk_buff *skb, %s);" % (handler(o, kind), args))
            for hook in ("pre", "post"):
                fn = dump_hook(o, hook) if kind == "dump" else None
                if fn and fn not in seen:
                    seen.add(fn)
                    h.append("int %s(struct netlink_callback *cb);" % fn)
    objs = objects(sp)
    if objs:
        h.append("\n/* Objects the shared handlers serve (hand-written), by command. */")
        h.append("struct mrc_genl_obj;")
        for obj, _ in objs:
            h.append("extern const struct mrc_genl_obj mrc_genl_%s_obj;" % lname(obj))
        h.append("const struct mrc_genl_obj *mrc_genl_obj_of(u8 cmd);")
    h.append("\n/* The family, for messages and events. */")
    h.append("extern struct genl_family mrc_genl_family;")
    h.append("\n/* Multicast groups: indexes in the family's group table. */")
    h.append("enum mrc_genl_mcgrp_index {")
    for g in sp.groups:
        h.append("\t%s," % cname("mrc-genl-mcgrp-", g["name"], "-index"))
    h.append("};")
    h.append("\nint mrc_genl_init(void);")
    h.append("void mrc_genl_exit(void);")
    h.append("\n#endif /* _MRC_GENL_SPEC_H */")
    hdr = fitted("\n".join(h)) + "\n"
    return src, hdr


# ---- selftests/tools/mrc_nlconst.py ----------------------------------------------

def gen_python(sp):
    """Every constant of the family as python names."""
    y = sp.y
    out = ["# SPDX-License-Identifier: GPL-2.0",
           '"""The constants of the "mrc" generic netlink family (uapi/linux/mrc.h).',
           "",
           "GENERATED by scripts/mrc-nlgen.py from Documentation/netlink/specs/mrc.yaml:",
           'do not edit by hand; edit the spec and run "make netlink-gen".',
           '"""', "",
           "%s = %r" % (cname(y["c-family-name"]), y["name"]),
           "%s = %r" % (cname(y["c-version-name"]), y["version"])]
    for g in sp.groups:
        out.append("%s = %r" % (cname(g["c-define-name"]), g["name"]))
    for d in y.get("definitions", []):
        if d["type"] == "const":
            out.append("%s = %r" % sp.consts[d["name"]])
    for d in y.get("definitions", []):
        if d["type"] != "enum":
            continue
        out += ["", "# enum %s" % d["enum-name"]]
        out += ["%s = %d" % (cname(d["name-prefix"], e["name"]), i)
                for i, e in enumerate(d["_entries"])]
    out += ["", "# enum %s" % sp.ops["enum-name"]]
    out += ["%s = %d" % (sp.op_c(o), o["_value"]) for o in sp.ops["list"]]
    for s in y["attribute-sets"]:
        if "subset-of" in s:
            continue
        out += ["", "# enum %s" % s["enum-name"]]
        out += ["%s = %d" % (sp.attr_c(s, a), a["_value"]) for a in s["attributes"]]
    return "\n".join(out) + "\n"


# ---- driver ---------------------------------------------------------------------

def outputs(root):
    """{path: text} of every generated file, from the spec under root."""
    with open(os.path.join(root, SPEC)) as f:
        sp = Spec(f.read())
    with open(os.path.join(root, UAPI)) as f:
        header = f.read()
    src, hdr = gen_kernel(sp)
    return {UAPI: splice_uapi(header, gen_uapi(sp)), KSRC: src, KHDR: hdr,
            PYMOD: gen_python(sp)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 with a diff if an output differs")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    try:
        want = outputs(args.root)
    except (SpecError, KeyError, OSError, yaml.YAMLError) as e:
        print("mrc-nlgen: %s" % e, file=sys.stderr)
        return 1
    drift = 0
    for path, text in want.items():
        full = os.path.join(args.root, path)
        try:
            with open(full) as f:
                have = f.read()
        except FileNotFoundError:
            have = ""
        if have == text:
            continue
        if args.check:
            drift += 1
            sys.stdout.writelines(difflib.unified_diff(
                have.splitlines(True), text.splitlines(True),
                "a/" + path + " (committed)", "b/" + path + " (from the spec)"))
        else:
            with open(full, "w") as f:
                f.write(text)
            print("mrc-nlgen: wrote %s" % path)
    if drift:
        print("mrc-nlgen: %d generated file(s) differ from %s; run \"make netlink-gen\" "
              "(or fix the spec) and commit the result" % (drift, SPEC), file=sys.stderr)
        return 1
    if args.check:
        print("mrc-nlgen: %s, %s, %s and %s match %s" % (UAPI, KSRC, KHDR, PYMOD, SPEC))
    return 0


if __name__ == "__main__":
    sys.exit(main())
