#!/usr/bin/env python3
"""Extract the README's first ```c (or ```js) block as a runnable program.

c:  the #include lines stay at the top, the rest becomes the body of main().
js: `from "memdomain"` is pointed at the local package (argv[3] = its URL).
"""
import re
import sys

lang, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
m = re.search(r"```" + lang + r"\n(.*?)```", text, re.S)
if not m:
    sys.exit(f"README has no ```{lang} block")
code = m.group(1)
if lang == "c":
    inc = [l for l in code.splitlines() if l.startswith("#include")]
    body = [l for l in code.splitlines() if not l.startswith("#include")]
    print("\n".join(inc + ["#include <stdio.h>", "int main(void) {"] + ["    " + l for l in body] +
                    ['    printf("readme-c: %.17g\\n", sim);', "    return sim == 0.7071067811865475 ? 0 : 1;", "}"]))
else:
    print(code.replace('from "memdomain"', f'from "{sys.argv[3]}"'))
