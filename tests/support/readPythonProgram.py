"""Reads a Python program with Python's own parser (ast) and prints, as JSON, its top-level
statements with every expression as data: a literal as its value, a name, an attribute, a call
with its arguments, a dict as its entries in order; and the keywords and builtins of this Python.

Usage: readPythonProgram.py PROGRAM.py"""
import ast
import builtins
import json
import keyword
import sys


def dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    raise ValueError(f"not a dotted name: {ast.dump(node)}")


def data(node: ast.expr):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return {"name": node.id}
    if isinstance(node, ast.Attribute):
        return {"attribute": dotted(node)}
    if isinstance(node, ast.Call):
        return {
            "call": dotted(node.func),
            "args": [data(arg) for arg in node.args],
            "kwargs": [[kw.arg, data(kw.value)] for kw in node.keywords],
        }
    if isinstance(node, ast.Dict):
        return {"dict": [[data(k), data(v)] for k, v in zip(node.keys, node.values)]}
    if isinstance(node, ast.List):
        return [data(item) for item in node.elts]
    raise ValueError(f"unexpected expression: {ast.dump(node)}")


def main(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    statements = []
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            statements.append({"import": [[a.name, a.asname] for a in statement.names]})
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            statements.append({"assign": dotted(statement.targets[0]), "value": data(statement.value)})
        else:
            raise ValueError(f"unexpected statement: {ast.dump(statement)}")
    json.dump(
        {
            "statements": statements,
            "keywords": keyword.kwlist + keyword.softkwlist,
            "builtins": dir(builtins),
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main(sys.argv[1])
