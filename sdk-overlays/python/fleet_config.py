# Hand-written (sdk-overlays/python/fleet_config.py, shipped by `npm run gen:sdks`): reads the
# stack's fleet for the generated Fleet, which the provider's plugin serves (voiceagent:index:Fleet):
# the plugin checks the document (every problem at once, naming its path, nothing sent) and
# declares its resources, so Python keeps no copy of the fleet's rules.
import typing

import pulumi
from pulumi.runtime import config as _runtime_config

__all__ = ["fleet_from_config"]


def fleet_from_config(key: str = "fleet") -> typing.Dict[str, typing.Any]:
    """
    The fleet of this stack, from its config value `<project>:<key>`, as the Fleet's arguments:
    ``Fleet("fleet", **fleet_from_config())``. When any path of the value was set with --secret,
    Pulumi marks the whole value secret, and so does this: the Fleet then stores every value of
    the fleet as a secret (the keys, which name resources, stay readable).
    """
    config = pulumi.Config()
    full_key = f"{config.name}:{key}"
    is_secret = getattr(_runtime_config, "is_config_secret", None)
    # Unknown counts as secret: a secret must never be stored in plaintext because we could not tell.
    if is_secret is None or is_secret(full_key):
        return {"fleet": config.require_secret_object(key)}
    return {"fleet": config.require_object(key)}
