#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""glue-layers: map which parts of the kernel glue (kmod/*.c, kmod/*.h)
depend on which, and find the cycles between them.

Parts. kmod/mrc_x.c and kmod/mrc_x.h are part "mrc_x" (a header with no .c
is a part of its own; *.mod.c are skipped). kmod/core/ is no part: using
it is a call down, always allowed, ignored like all the kernel defines.

Owners. A symbol belongs to the part that defines it: a non-static function
(func) or variable (var) of mrc_x.c, a static inline (inline) or #define
(macro; not include guards) of mrc_x.h. Names kmod/core/ or uapi/ also
define stay theirs.

The edge rule. A -> B ("A depends on B") when code of A calls a func or
inline of B ("name(" follows) or names a macro of B. Code of A: the function
bodies, top-level initialisers and #define bodies of mrc_a.c, the inline
and #define bodies of mrc_a.h. No use: a member (after "." or "->"), a tag
(after struct/union/enum), a name the same file defines (statics, local
macros shadow), a declaration (mrc_cfg.h declaring functions of
mrc_events.c does not make mrc_cfg depend on mrc_events), and including
mrc_b.h without using what B owns. --refs also counts a func named without
a call (its address: ops tables, callbacks) and any var. --include-edges
adds the crude first-version rule "mrc_a.c includes mrc_b.h".

Parsing is heuristic: comments and literals are blanked first (neither can
make an edge); a function definition is an identifier, a parameter list at
file scope and "{"; both arms of an #if are read.

Cycles are strongly connected components of more than one part. Their
"closing" edges are the back edges of a greedy order (Eades-Lin-Smyth,
weighted by symbols per edge): removing them breaks the cycle.

Output: the parts (lines, layer), each part's edges with up to 3 symbols
[file:line of a use], the cycles and their closing edges, then "glue-layers:
N parts, M cycles (largest: K parts)". --json: all of it, and per file the
headers included, non-static functions defined, glue functions called.
--dot: a Graphviz digraph. --check ALLOWED: exit 1 if a cycle is not
allowed or a non-static function of a .c has no user in another part (it
should be static, or go), else 0 (2: usage). ALLOWED: one cycle a line, its parts space
separated, "#" comments; a cycle passes if its parts are a subset of one
line (one that shrank passes; a grown or new one fails).
"""
import argparse
import bisect
import glob
import json
import os
import re
import sys
from collections import defaultdict

# Comments and literals, blanked before anything else looks at the code.
LEXEME = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
IDENT = re.compile(r'[A-Za-z_]\w*')
TOP = re.compile(r'[{};]')
PARENS = r'\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)'     # nested twice at most
FUNC_HEAD = re.compile(r'([A-Za-z_]\w*)\s*' + PARENS + '$')
# Annotations that may follow a parameter list before the body.
TRAILER_WORD = re.compile(r'\b(?:__releases|__acquires|__must_hold|__attribute__)\b')
TRAILER = re.compile(TRAILER_WORD.pattern + r'\s*' + PARENS + '$')
DIRECTIVE = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)   # with continuations
DEFINE = re.compile(r'\s*#\s*define\s+(\w+)(\([^)]*\))?(.*)', re.S)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
NOT_A_NAME = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'typeof',
              '__typeof__', 'defined', 'do', 'else', 'case', 'goto'}


def blank(s):
    """Spaces for everything but newlines: offsets and lines stay put."""
    return re.sub(r'[^\n]', ' ', s)


def strip_c(text, keep_strings):
    """Blank comments, and literal contents unless keep_strings."""
    def repl(m):
        s = m.group(0)
        if s[0] == '/':
            return blank(s)
        return s if keep_strings else s[0] + blank(s[1:-1]) + s[-1]
    return LEXEME.sub(repl, text)


class Source:
    """One file taken apart: includes, macros, functions, variables and the
    spans of its code (function bodies, initialisers)."""

    def __init__(self, path, is_header):
        self.path, self.is_header = path, is_header
        with open(path, encoding='utf-8', errors='replace') as f:
            raw = f.read()
        self.nlines = raw.count('\n')
        code = strip_c(raw, keep_strings=False)
        self.newlines = [m.start() for m in re.finditer('\n', code)]
        self.includes = INCLUDE.findall(strip_c(raw, keep_strings=True))
        self.macros = {}                      # name -> (params, body, line)
        for m in DIRECTIVE.finditer(code):
            d = DEFINE.match(m.group(0).replace('\\\n', ' '))
            if d and d.group(3).strip():      # an empty body: include guard
                self.macros[d.group(1)] = (set(IDENT.findall(d.group(2) or '')),
                                           d.group(3), self.line(m.start()))
        # The parser below sees no directives (offsets and lines stay).
        self.code = DIRECTIVE.sub(lambda m: blank(m.group(0)), code)
        self.funcs, self.vars = {}, {}        # name -> (static, line)
        self.code_spans = []                  # (start, end) of code
        start = depth = opened = 0
        for m in TOP.finditer(self.code):     # file scope: depth 0
            i = m.start()
            if m.group(0) == '{':
                opened = i if depth == 0 else opened
                depth += 1
            elif m.group(0) == '}':
                depth = max(depth - 1, 0)     # (a stray "}" is ignored)
                name = function_name(self.code[start:opened]) if depth == 0 else None
                if name:                      # a definition: its body is code
                    static = re.search(r'\bstatic\b', self.code[start:opened]) is not None
                    self.funcs[name] = (static, self.line(opened))
                    self.code_spans.append((opened, i + 1))
                    start = i + 1             # else a struct or an initialiser
            elif depth == 0:
                self._statement(start, i)
                start = i + 1

    def line(self, off):
        return bisect.bisect_left(self.newlines, off) + 1

    def _statement(self, start, end):
        """A top-level statement ending at code[end] == ";": a variable
        definition (its initialiser is code) or something else."""
        stmt, flat = self.code[start:end], None
        while flat != stmt:                   # blank {...}: struct/enum bodies
            flat, stmt = stmt, re.sub(r'\{[^{}]*\}', lambda m: blank(m.group(0)), stmt)
        eq = stmt.find('=')
        head = stmt if eq < 0 else stmt[:eq]
        if eq >= 0 and not self.is_header:
            self.code_spans.append((start + eq, end))
        if '(' in head or '{' in head or re.search(r'\b(extern|typedef)\b', head):
            return                            # prototype, macro call, type...
        words = [w for w in IDENT.findall(re.sub(r'\[[^\]]*\]', '', head))
                 if not w.startswith('__')]  # no attributes, no array sizes
        if len(words) >= 2:
            self.vars[words[-1]] = ('static' in words, self.line(start + len(head)))

    def uses(self):
        """Yield (name, is_call, line) for every identifier used as code."""
        for start, end in self.code_spans:
            for name, is_call, off in idents(self.code, start, end, set()):
                yield name, is_call, self.line(off)
        for params, body, line in self.macros.values():
            for name, is_call, _ in idents(body, 0, len(body), params):
                yield name, is_call, line


def function_name(head):
    """The name if head (the text before a top-level "{") is a function's."""
    head = head.rstrip()
    while TRAILER_WORD.search(head) and TRAILER.search(head):
        head = TRAILER.sub('', head).rstrip()
    m = FUNC_HEAD.search(head) if '=' not in head else None
    return m.group(1) if m and m.group(1) not in NOT_A_NAME else None


def idents(code, start, end, ignore):
    """(name, is_call, offset) of the identifiers of code[start:end] that
    may name a glue symbol: no member, no struct/union/enum tag."""
    for m in IDENT.finditer(code, start, end):
        name = m.group(0)
        if name in ignore or name in NOT_A_NAME:
            continue
        before = code[max(0, m.start() - 40):m.start()].rstrip()
        if before.endswith('.') or before.endswith('->') or \
                re.search(r'\b(struct|union|enum)$', before):
            continue
        yield name, code[m.end():m.end() + 40].lstrip().startswith('('), m.start()


def part_of(path):
    return os.path.splitext(os.path.basename(path))[0]


def analyse(root, include_edges=False, refs=False):
    """Parts {name: {lines, files: {file: {includes, defines, calls}}}} and
    edges {(a, b): {symbol: {kind, call, at, defined}}}."""
    kmod = os.path.join(root, 'kmod')
    srcs = [Source(p, p.endswith('.h')) for p in sorted(glob.glob(os.path.join(
        kmod, '*.[ch]'))) if not p.endswith('.mod.c')]
    # Names the core or the uapi define are theirs, never a glue symbol's.
    foreign = set()
    for p in glob.glob(os.path.join(kmod, 'core', '*.[ch]')) + \
            glob.glob(os.path.join(root, 'uapi', '**', '*.h'), recursive=True):
        s = Source(p, p.endswith('.h'))
        foreign |= {n for n, (st, _) in s.funcs.items() if s.is_header or not st}
        foreign |= set(s.macros)
    owner = {}                                # name -> (part, kind, file:line)
    for s in srcs:
        rel = os.path.relpath(s.path, kmod)
        if s.is_header:
            items = [(n, 'inline', l) for n, (st, l) in s.funcs.items() if st]
            items += [(n, 'macro', l) for n, (_, _, l) in s.macros.items()]
        else:
            items = [(n, 'func', l) for n, (st, l) in s.funcs.items() if not st]
            items += [(n, 'var', l) for n, (st, l) in s.vars.items() if not st]
        for name, kind, line in items:
            if name not in foreign:
                owner.setdefault(name, (part_of(s.path), kind, '%s:%d' % (rel, line)))
    parts = defaultdict(lambda: {'lines': 0, 'files': {}})
    edges = defaultdict(dict)
    for s in srcs:
        a, rel = part_of(s.path), os.path.relpath(s.path, kmod)
        f = parts[a]['files'][rel] = {'lines': s.nlines, 'includes': [], 'calls': set(),
                                      'defines': sorted(n for n, (st, _) in s.funcs.items()
                                                        if not st and not s.is_header)}
        parts[a]['lines'] += s.nlines
        for inc in s.includes:                # resolve like -I kmod -I kmod/core
            for d in (os.path.dirname(s.path), os.path.join(kmod, 'core')):
                if os.path.exists(os.path.join(d, inc)):
                    inc = os.path.relpath(os.path.join(d, inc), kmod)
                    break
            f['includes'].append(inc)
            b = part_of(inc)
            if include_edges and '/' not in inc and b != a and not s.is_header:
                edges[(a, b)].setdefault('#include "%s"' % inc, {
                    'kind': 'include', 'call': False, 'at': rel, 'defined': inc})
        local = set(s.funcs) | set(s.vars) | set(s.macros)
        for name, is_call, line in s.uses():
            if name in local or name not in owner or owner[name][0] == a:
                continue
            b, kind, defined = owner[name]
            if not refs and (kind == 'var' or (kind in ('func', 'inline') and not is_call)):
                continue                      # by default: calls and macros
            if kind == 'func' and is_call:
                f['calls'].add(name)
            old = edges[(a, b)].get(name)
            if old is None or (is_call and not old['call']):   # a call wins
                edges[(a, b)][name] = {'kind': kind, 'call': is_call,
                                       'at': '%s:%d' % (rel, line), 'defined': defined}
        f['calls'] = sorted(f['calls'])
    return dict(parts), dict(edges)


def sccs(nodes, succ):
    """Tarjan's strongly connected components, dependencies first."""
    index, low, stack, out = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            at = stack.index(v)
            out.append(sorted(stack[at:]))
            del stack[at:]
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def closing_edges(comp, weight):
    """Greedy feedback arc set (Eades, Lin, Smyth): order the parts so that
    few and light edges point backwards; return the order and those."""
    left, head, tail = set(comp), [], []
    w = {e: n for e, n in weight.items() if e[0] in left and e[1] in left}
    while left:
        out_w = {v: sum(n for (a, b), n in w.items() if a == v and b in left) for v in left}
        in_w = {v: sum(n for (a, b), n in w.items() if b == v and a in left) for v in left}
        sinks = sorted(v for v in left if out_w[v] == 0)
        if sinks:                             # sinks go last, the rest first
            tail.insert(0, sinks[0])
            left.discard(sinks[0])
            continue
        v = max(sorted(left), key=lambda v: (in_w[v] == 0, out_w[v] - in_w[v]))
        head.append(v)
        left.discard(v)
    pos = {v: i for i, v in enumerate(head + tail)}
    return head + tail, sorted(e for e in w if pos[e[0]] > pos[e[1]])


def examples(syms, n=3):
    """Up to n symbols of an edge, calls first: "name() [file:line]"."""
    def show(k, v):                           # &f: a function's address
        return ('&' if v['kind'] == 'func' and not v['call'] else '') + k + '()' * v['call']
    ordered = sorted(syms.items(), key=lambda kv: (not kv[1]['call'], kv[0]))
    text = ', '.join('%s [%s]' % (show(k, v), v['at']) for k, v in ordered[:n])
    return text + (', +%d more' % (len(ordered) - n) if len(ordered) > n else '')


def print_dot(parts, edges, cycles, level):
    closing = {e for c in cycles for e in c['closing']}
    inner = {e for c in cycles for e in c['edges']}
    print('digraph glue_layers {\n  rankdir=BT;\n  node [shape=box];')
    for i, c in enumerate(cycles):
        print('  subgraph cluster_%d { label="cycle %d"; color=red; %s }' % (
            i + 1, i + 1, ' '.join('"%s";' % v for v in c['parts'])))
    for v in sorted(parts):
        print('  "%s" [label="%s\\n%d lines, layer %d"];' % (v, v, parts[v]['lines'], level[v]))
    for e, s in sorted(edges.items()):
        style = 'red, style=bold' if e in closing else 'red' if e in inner else 'gray40'
        print('  "%s" -> "%s" [label="%d", tooltip="%s", color=%s];' % (
            e[0], e[1], len(s), ' '.join(sorted(s)).replace('"', "'"), style))
    print('}')
    return 0


def unused_funcs(root):
    """Non-static functions of a .c that no other part calls or names:
    [(part, file, name)]. Each should be static, or go."""
    parts, edges = analyse(root, refs=True)
    used = {n for syms in edges.values() for n in syms}
    return sorted((p, rel, n) for p, v in parts.items()
                  for rel, f in v['files'].items() for n in f['defines'] if n not in used)


def check(allowed_file, cycles, edges, unused):
    """--check: report the cycles no line of the allowed file covers, and
    every non-static function no other part uses."""
    with allowed_file:
        allowed = [set(l.split('#', 1)[0].split()) for l in allowed_file]
    allowed = [a for a in allowed if a]
    for a in allowed:
        if not any(set(c['parts']) == a for c in cycles):
            print('glue-layers: note: allowed cycle no longer present as such '
                  '(tighten the file?): %s' % ' '.join(sorted(a)), file=sys.stderr)
    bad = [c for c in cycles if not any(set(c['parts']) <= a for a in allowed)]
    for c in bad:
        print('glue-layers: cycle not allowed: %s' % ' '.join(c['parts']))
        for e in c['closing']:
            print('    closed by %s -> %s: %s' % (e[0], e[1], examples(edges[e])))
    for p, rel, n in unused:
        print('glue-layers: %s (%s) is not static but no other part uses it' % (n, rel))
    return 1 if bad or unused else 0


def print_report(parts, edges, cycles, level):
    print('parts (layer 0 depends on no other part; a cycle shares one layer):')
    for v in sorted(parts, key=lambda v: (level[v], v)):
        print('  %-16s layer %2d %5d lines  %s' % (v, level[v], parts[v]['lines'],
                                                   ' '.join(sorted(parts[v]['files']))))
    print('\ndependencies (part -> part, symbols used: examples [where used]):')
    for v in sorted(parts):
        incs = {i for f in parts[v]['files'].values() for i in f['includes']
                if '/' not in i and part_of(i) != v}
        print('  %s  (includes: %s)' % (v, ' '.join(sorted(incs)) or '-'))
        for (a, b), s in sorted(edges.items()):
            if a == v:
                print('    -> %-15s %2d: %s' % (b, len(s), examples(s)))
    print('\ncycles:' if cycles else '\ncycles: none')
    for i, c in enumerate(cycles):
        print('  cycle %d (%d parts, %d edges): %s' % (
            i + 1, len(c['parts']), len(c['edges']), ' '.join(c['parts'])))
        print('    greedy order, dependents first: %s' % ' > '.join(c['order']))
        for e in c['closing']:
            print('    closed by %s -> %s (%d): %s' % (e[0], e[1], len(edges[e]),
                                                     examples(edges[e])))
    return 0


SELF_TEST_TREE = {
    # a -> b -> a is a cycle; c's helper is non-static and used by nobody.
    'kmod/mrc_a.c': 'int mrc_a_f(void)\n{\n\treturn mrc_b_f();\n}\n',
    'kmod/mrc_a.h': 'int mrc_a_f(void);\n',
    'kmod/mrc_b.c': 'int mrc_b_f(void)\n{\n\treturn mrc_a_f();\n}\n',
    'kmod/mrc_b.h': 'int mrc_b_f(void);\n',
    'kmod/mrc_c.c': 'int mrc_c_helper(void)\n{\n\treturn 0;\n}\n'
                    'int mrc_c_f(void)\n{\n\treturn mrc_c_helper() + mrc_b_f();\n}\n',
    'kmod/mrc_d.c': 'int mrc_d_f(void)\n{\n\treturn mrc_c_f() + mrc_a_f();\n}\n',
    'kmod/mrc_main.c': 'static int x(void)\n{\n\treturn mrc_d_f();\n}\n',
}


def self_test():
    """--self-test: the check must fail on a cycle and on an unused
    non-static function, name both, and pass once both are fixed."""
    import io
    import tempfile
    import contextlib
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w') as f:
                f.write(text)

        def run():
            parts, edges = analyse(root)
            succ = {v: {b for a, b in edges if a == v} for v in parts}
            cycles = [{'parts': c, 'closing': closing_edges(c, {e: 1 for e in edges})[1]}
                      for c in sccs(parts, succ) if len(c) > 1]
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = check(io.StringIO(''), cycles, edges, unused_funcs(root))
            return status, out.getvalue()
        status, out = run()
        if status != 1 or 'cycle not allowed: mrc_a mrc_b' not in out or \
                'mrc_c_helper (mrc_c.c)' not in out or 'mrc_c_f' in out:
            print('glue-layers self-test: the broken tree was not caught:\n' + out)
            return 1
        with open(os.path.join(root, 'kmod/mrc_b.c'), 'w') as f:
            f.write('int mrc_b_f(void)\n{\n\treturn 1;\n}\n')
        with open(os.path.join(root, 'kmod/mrc_c.c'), 'w') as f:
            f.write('static int mrc_c_helper(void)\n{\n\treturn 0;\n}\n'
                    'int mrc_c_f(void)\n{\n\treturn mrc_c_helper() + mrc_b_f();\n}\n')
        status, out = run()
        if status != 0:
            print('glue-layers self-test: the fixed tree failed:\n' + out)
            return 1
    print('glue-layers self-test: ok')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..'), help='repository root')
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument('--check', metavar='ALLOWED_FILE', type=argparse.FileType('r'))
    mode.add_argument('--dot', action='store_true')
    mode.add_argument('--json', action='store_true')
    ap.add_argument('--refs', action='store_true',
                    help='also count functions named without a call, and variables')
    ap.add_argument('--include-edges', action='store_true',
                    help="also A -> B when mrc_a.c includes mrc_b.h")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.root, 'kmod')):
        ap.error('no kmod/ under %s' % args.root)
    parts, edges = analyse(os.path.abspath(args.root), args.include_edges, args.refs)
    succ = {v: {b for a, b in edges if a == v} for v in parts}
    comps = sccs(parts, succ)
    comp_of = {v: i for i, c in enumerate(comps) for v in c}
    layer = []                                # one above what it depends on
    for i, c in enumerate(comps):
        deps = {comp_of[w] for v in c for w in succ[v]} - {i}
        layer.append(1 + max((layer[d] for d in deps), default=-1))
    level = {v: layer[comp_of[v]] for v in parts}
    weight = {e: len(s) for e, s in edges.items()}
    cycles = []
    for c in sorted((c for c in comps if len(c) > 1), key=lambda c: (-len(c), c)):
        order, closing = closing_edges(c, weight)
        inner = sorted(e for e in edges if e[0] in c and e[1] in c)
        cycles.append({'parts': c, 'order': order, 'edges': inner, 'closing': closing})
    summary = 'glue-layers: %d parts, %d cycles (largest: %d parts)' % (
        len(parts), len(cycles), max((len(c['parts']) for c in cycles), default=0))
    if args.json:
        json.dump({'parts': {k: dict(v, layer=level[k]) for k, v in parts.items()},
                   'edges': [{'from': a, 'to': b, 'symbols': s}
                             for (a, b), s in sorted(edges.items())],
                   'cycles': cycles, 'summary': summary},
                  sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    if args.dot:
        return print_dot(parts, edges, cycles, level)
    unused = unused_funcs(os.path.abspath(args.root))
    status = check(args.check, cycles, edges, unused) if args.check else \
        print_report(parts, edges, cycles, level)
    if not args.check:
        for p, rel, n in unused:
            print('unused outside its part: %s (%s)' % (n, rel))
    print(summary)
    return status


if __name__ == '__main__':
    sys.exit(main())
