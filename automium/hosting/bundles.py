"""Where an owned app's files, seeds and accounts live, and how a fixture's state is built.

Each app is package data of the corpus, ``automium/corpus/apps/<app>/``::

    index.html            the shell; the host puts the boot script at <!--automium:boot-->
    static/               scripts, styles, anything the page loads (served at /static/)
    files/                the files a fixture ships for ``upload_file`` (by file ref)
    seeds/<name>.json     one JSON object per seed ref ``seed:<app>/<name>``
    accounts.json         account ref -> {"profile": {...}, "secrets": {...}}

Beside them, ``automium/corpus/apps/shared/`` holds the script every app's shell loads before
its own (served at /shared/). It has no ``index.html``, so nothing takes it for an app.

A fixture's state is its seeds merged in the order of its ``seedRefs`` (later keys win),
plus the public profile of its first account when it has one (the session starts signed
in). Secrets stay here, on the server side: the page never receives them, so a trace or a
screenshot cannot hold them. Nothing here reads the page models or the built corpus's pages:
the apps are the implementation the models are proven against.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from automium.corpus import get_fixture

Json = dict[str, Any]


SHARED = "shared"
"""The apps' shared folder, both below the apps' root and as the path it is served at."""


def app_root(app_id: str) -> Traversable:
    return resources.files("automium.corpus") / "apps" / app_id


def shared_root() -> Traversable:
    """What every app loads besides its own files: not an app (it has no ``index.html``)."""
    return resources.files("automium.corpus") / "apps" / SHARED


def _read_json(path: Traversable) -> Json:
    value = json.loads(path.read_text("utf-8"))
    if not isinstance(value, dict):
        raise ValueError(f"{path} holds no JSON object")
    return value


@cache
def accounts(app_id: str) -> Json:
    path = app_root(app_id) / "accounts.json"
    return _read_json(path) if path.is_file() else {}


@dataclass(frozen=True)
class FixtureState:
    """What a fresh session of one fixture starts from."""

    app_id: str
    fixture_id: str
    data: Json
    account_ref: str | None

    def boot(self) -> Json:
        """The public part, handed to the page: never a secret."""
        account = None
        if self.account_ref is not None:
            profile = accounts(self.app_id).get(self.account_ref, {}).get("profile", {})
            account = {"ref": self.account_ref, **profile}
        return {
            "appId": self.app_id,
            "fixtureId": self.fixture_id,
            "data": self.data,
            "account": account,
        }


def fixture_state(app_id: str, fixture_id: str) -> FixtureState:
    fixture = get_fixture(fixture_id, app_id)
    data: Json = {}
    for ref in fixture.seed_refs:
        name = ref.root.removeprefix(f"seed:{app_id}/")
        data.update(_read_json(app_root(app_id) / "seeds" / f"{name}.json"))
    account_ref = fixture.account_refs[0].root if fixture.account_refs else None
    return FixtureState(app_id, fixture_id, data, account_ref)


def secret(app_id: str, secret_ref: str) -> str:
    """The value behind ``account:<app>/<name>#<field>``; for the executor, never the page."""
    account_ref, _, field = secret_ref.partition("#")
    value = accounts(app_id).get(account_ref, {}).get("secrets", {}).get(field)
    if not isinstance(value, str):
        raise KeyError(f"no secret {secret_ref!r} in the seeds of {app_id}")
    return value


IDENTITY_FIELDS = ("email", "customerId")
"""The profile fields that name an account: a sign-in must give the account's own."""


def matching_account(app_id: str, login: Json) -> str | None:
    """The account a sign-in names and proves, or None.

    Complete credentials only: the profile gives the account's identity (its email or
    customer id, whichever it has) and the secrets give at least one of its secrets, every
    given field matching. A one-time code with no customer id, or a password with no email,
    names no account, however well it matches one."""
    profile_fields = login.get("profile", {})
    secret_fields = login.get("secrets", {})
    if not isinstance(profile_fields, dict) or not isinstance(secret_fields, dict):
        return None
    if not secret_fields:
        return None
    for ref, record in accounts(app_id).items():
        profile, secrets = record.get("profile", {}), record.get("secrets", {})
        identity = [k for k in IDENTITY_FIELDS if k in profile]
        if (
            identity
            and all(k in profile_fields for k in identity)
            and all(profile.get(k) == v for k, v in profile_fields.items())
            and all(secrets.get(k) == v for k, v in secret_fields.items())
        ):
            return str(ref)
    return None
