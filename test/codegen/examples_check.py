# Checks the Python examples (provider/examples/*.py) against the generated SDK: each compiles
# (what py_compile does), and every `voiceagent.X` it names exists, with every keyword argument
# of a call among the parameters that X takes. Prints one line per problem; exits 1 if any.
# Usage: python examples_check.py SDK_DIR FILE...
import ast
import importlib.metadata
import inspect
import sys

# The SDK is imported from its source folder, not installed: its version lookup gets a stand-in.
_version = importlib.metadata.version
importlib.metadata.version = lambda name: "0.0.0" if name == "pulumi_voiceagent" else _version(name)
sys.path.insert(0, sys.argv[1])
import pulumi_voiceagent as voiceagent  # noqa: E402

problems = []


def resolve(node):
    """The SDK object `voiceagent.A.B` names, or None when the expression is not one."""
    if isinstance(node, ast.Name):
        return voiceagent if node.id == "voiceagent" else None
    if isinstance(node, ast.Attribute):
        owner = resolve(node.value)
        if owner is None:
            return None
        if not hasattr(owner, node.attr):
            raise AttributeError(f"{ast.unparse(node)} does not exist")
        return getattr(owner, node.attr)
    return None


def parameters(target):
    """The keyword names `target` takes (a resource's are those of its _internal_init), or None for any."""
    fn = target._internal_init if inspect.isclass(target) and hasattr(target, "_internal_init") else target
    params = inspect.signature(fn).parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params}


for file in sys.argv[2:]:
    source = open(file, encoding="utf-8").read()
    try:
        tree = ast.parse(compile(source, file, "exec", ast.PyCF_ONLY_AST), file)
    except SyntaxError as e:
        problems.append(f"{file}:{e.lineno}: {e.msg}")
        continue
    for node in ast.walk(tree):
        try:
            if isinstance(node, ast.Attribute):
                resolve(node)
            if isinstance(node, ast.Call):
                target = resolve(node.func)
                if target is None:
                    continue
                allowed = parameters(target)
                for kw in node.keywords:
                    if allowed is not None and kw.arg is not None and kw.arg not in allowed:
                        problems.append(f"{file}:{node.lineno}: {ast.unparse(node.func)} takes no argument {kw.arg}")
        except AttributeError as e:
            problems.append(f"{file}:{node.lineno}: {e}")

for p in sorted(set(problems)):
    print(p)
sys.exit(1 if problems else 0)
