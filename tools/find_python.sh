#!/bin/sh
# Prints the interpreter `make PYTHON=...` asked for: the command itself when it runs,
# else pyenv's newest installed X.Y for a `pythonX.Y` that pyenv has but has not selected.
# Says why on stderr and prints nothing when there is none.
want=$1
if "$want" -c '' >/dev/null 2>&1; then
    command -v "$want" 2>/dev/null || echo "$want"
    exit 0
fi
version=${want#python}
if [ "$version" != "$want" ] && command -v pyenv >/dev/null 2>&1; then
    root=$(pyenv root)
    found=$(ls -d "$root"/versions/"$version".* 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$found" ] && [ -x "$found/bin/python" ]; then
        echo "$found/bin/python"
        exit 0
    fi
fi
echo "make: $want does not run and pyenv has no $want installed (pyenv install $version)" >&2
exit 1
