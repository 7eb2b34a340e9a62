"""Artifact manifests from caller-supplied entries: kinds and relative-path rules."""

from automium.artifacts.manifest import build_manifest
from automium.artifacts.paths import MAX_PATH_LENGTH, path_problem

__all__ = ["MAX_PATH_LENGTH", "build_manifest", "path_problem"]
