# Runs a Pulumi Python program for pulumi-language-python (host.go): connects the Python SDK to the
# engine with the settings the host passes, then runs the program inside the root stack resource.
# Exit code 32 means the error was already reported to the engine, so it prints no second one.
import argparse
import asyncio
import os
import runpy
import sys
import traceback

import pulumi
import pulumi.runtime as runtime

REPORTED = 32


def main() -> int:
    parser = argparse.ArgumentParser(prog="pulumi-language-python")
    for flag in ("monitor", "engine", "project", "stack", "organization", "root-directory", "pwd", "parallel"):
        parser.add_argument("--" + flag)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("program")
    parser.add_argument("args", nargs="*")
    a = parser.parse_args()

    runtime.set_all_config(runtime.get_config_env(), runtime.get_config_secret_keys_env())
    runtime.configure(
        runtime.Settings(
            project=a.project,
            stack=a.stack,
            monitor=a.monitor,
            engine=a.engine,
            parallel=int(a.parallel) if a.parallel else None,
            dry_run=a.dry_run,
            organization=a.organization,
            root_directory=a.root_directory,
        )
    )
    if a.pwd:
        os.chdir(a.pwd)
    program = os.path.abspath(a.program)
    main_file = os.path.join(program, "__main__.py") if os.path.isdir(program) else program
    if not os.path.isfile(main_file):
        pulumi.log.error(f"no Python program at {main_file}: a Python project needs a __main__.py (or Pulumi.yaml main:)")
        return REPORTED
    # As `python <program>` would: the program's folder first on the import path, its own argv.
    sys.path.insert(0, os.path.dirname(main_file))
    sys.argv = [main_file, *a.args]

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(runtime.run_in_stack(lambda: runpy.run_path(main_file, run_name="__main__")))
        return 0
    except pulumi.RunError as err:
        pulumi.log.error(str(err))
        return REPORTED
    except Exception:  # noqa: BLE001 - every failure of the program is the user's to see
        pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
        return REPORTED
    finally:
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())
