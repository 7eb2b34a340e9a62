"""admin-console behaves like the back office its page model describes, in a real browser.

Each test carries out a reference journey of the app (or a step of one the model promises)
by hand, as a person would in ``automium apps serve``, and checks what the person sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from automium.hosting.bundles import app_root, secret
from automium.hosting.server import AppServer
from tests.browser.served import page_on, served, visit

APP = "admin-console"


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, AppServer]]:
    with served(APP, ("admin-console.admin-user", "admin-console.read-only-auditor")) as started:
        yield started


@pytest.fixture
def admin(chromium_browser: Browser, servers: dict[str, AppServer]) -> Iterator[Page]:
    yield from page_on(chromium_browser, servers["admin-console.admin-user"])


@pytest.fixture
def auditor(chromium_browser: Browser, servers: dict[str, AppServer]) -> Iterator[Page]:
    yield from page_on(chromium_browser, servers["admin-console.read-only-auditor"])


def _rows(page: Page, table: str) -> list[list[str]]:
    rows = page.get_by_role("table", name=table, exact=True).get_by_role("row").all()
    return [[cell.inner_text() for cell in row.get_by_role("cell").all()] for row in rows[1:]]


def test_importing_the_fixtures_csv_adds_its_three_users_and_says_so(admin: Page) -> None:
    admin.get_by_role("link", name="Users", exact=True).click()
    admin.get_by_role("button", name="Import users", exact=True).click()
    csv = Path(str(app_root(APP) / "files" / "users.csv"))
    admin.get_by_role("button", name="Choose CSV file", exact=True).set_input_files(csv)
    admin.get_by_role("button", name="Import", exact=True).click()

    expect(admin.get_by_role("status", name="Import result")).to_have_text("3 users imported")
    expect(admin.get_by_role("dialog", name="Import users")).to_be_hidden()
    admin.get_by_role("checkbox", name="Show deactivated users").uncheck()
    admin.get_by_role("combobox", name="Role").select_option("Editor")
    names = [row[0] for row in _rows(admin, "Users")]
    assert names == ["Dana Whitfield", "Hana Sato", "Jonas Berg", "Rosa Delgado", "Tomasz Nowak"]


def test_an_import_without_a_file_keeps_the_dialog_open_and_says_what_is_missing(
    admin: Page,
) -> None:
    visit(admin, "/users")
    admin.get_by_role("button", name="Import users", exact=True).click()
    admin.get_by_role("button", name="Import", exact=True).click()

    expect(admin.get_by_role("alert")).to_have_text("Choose a CSV file first.")
    expect(admin.get_by_role("dialog", name="Import users")).to_be_visible()


def test_a_saved_edit_renames_the_user_and_records_the_role_change(admin: Page) -> None:
    visit(admin, "/users/1007")
    admin.get_by_role("button", name="Edit user", exact=True).click()
    dialog = admin.get_by_role("dialog", name="Edit user")
    dialog.get_by_role("textbox", name="Full name").fill("Dana Whitfield-Ross")
    dialog.get_by_role("combobox", name="Role").select_option("Admin")
    dialog.get_by_role("button", name="Save changes").click()

    expect(admin.get_by_role("status", name="Changes saved")).to_be_visible()
    admin.reload()
    expect(admin.get_by_role("heading", level=1)).to_have_text("Dana Whitfield-Ross")
    expect(admin.get_by_role("region", name="Profile")).to_have_text(
        "Admin, active since March 2025"
    )
    visit(admin, "/audit-log")
    assert _rows(admin, "Audit events")[0][1:] == [
        "Priya Raman",
        "Role changed",
        "Dana Whitfield-Ross: Editor to Admin",
    ]


def test_deactivating_a_user_counts_on_the_dashboard(admin: Page) -> None:
    visit(admin, "/users/1007")
    admin.get_by_role("button", name="Deactivate user", exact=True).click()
    admin.get_by_role("alertdialog", name="Deactivate this user?").get_by_role(
        "button", name="Deactivate"
    ).click()

    expect(admin.get_by_role("button", name="Reactivate user")).to_be_visible()
    visit(admin, "/")
    expect(admin.get_by_role("region", name="Members")).to_contain_text(
        "8 active members, 4 deactivated"
    )


def test_saved_settings_show_in_the_audit_log(admin: Page) -> None:
    visit(admin, "/settings")
    admin.get_by_role("combobox", name="Default role for new users").select_option("Editor")
    admin.get_by_role("checkbox", name="Require two-factor authentication").check()
    admin.get_by_role("button", name="Save changes").click()
    expect(admin.get_by_role("status", name="Settings saved")).to_have_text("Settings saved")

    admin.get_by_role("link", name="Audit log", exact=True).click()
    admin.get_by_role("combobox", name="Action").select_option("Settings changed")
    assert _rows(admin, "Audit events") == [
        [
            "1 December 2026, 09:31",
            "Priya Raman",
            "Settings changed",
            "Default role: Viewer to Editor; Two-factor authentication: off to on",
        ]
    ]


def test_the_auditor_sees_a_user_without_the_controls_that_change_one(auditor: Page) -> None:
    visit(auditor, "/users")
    auditor.get_by_role("textbox", name="Filter users").fill("Dana")
    assert [row[0] for row in _rows(auditor, "Users")] == ["Dana Whitfield"]
    auditor.get_by_role("link", name="Dana Whitfield").click()

    expect(auditor.get_by_role("status", name="Read-only access")).to_be_visible()
    for control in ("Edit user", "Deactivate user"):
        expect(auditor.get_by_role("button", name=control)).to_have_count(0)
    auditor.go_back()
    assert auditor.url.endswith("/users")


def test_the_auditor_is_sent_from_settings_to_the_dashboard(auditor: Page) -> None:
    visit(auditor, "/settings")

    expect(auditor.get_by_role("heading", name="Dashboard")).to_be_visible()
    assert auditor.url.endswith("/")
    expect(auditor.get_by_role("link", name="Settings")).to_have_count(0)


def test_the_auditor_lists_this_months_deactivations_without_an_export(auditor: Page) -> None:
    auditor.get_by_role("link", name="View audit log").click()
    expect(auditor.get_by_role("button", name="Export CSV")).to_have_count(0)
    auditor.get_by_role("combobox", name="Action").select_option("User deactivated")
    assert len(_rows(auditor, "Audit events")) == 3
    auditor.get_by_role("textbox", name="From date").fill("2026-11-01")

    assert _rows(auditor, "Audit events") == [
        ["21 November 2026, 09:15", "Dana Whitfield", "User deactivated", "Marcus Obi"]
    ]


def test_the_admin_signs_out_and_back_in_with_the_seeds_password(admin: Page) -> None:
    admin.get_by_role("button", name="Sign out").click()
    admin.wait_for_url("**/login")
    admin.get_by_role("textbox", name="Work email").fill("priya@northwind.example")
    password = secret(APP, "account:admin-console/admin#password")
    admin.get_by_role("textbox", name="Password").fill(password)
    admin.keyboard.press("Enter")

    expect(admin.get_by_role("heading", name="Dashboard")).to_be_visible()
    assert admin.url.endswith("/")


def test_a_wrong_password_is_refused_on_the_sign_in_page(admin: Page) -> None:
    visit(admin, "/login")
    admin.get_by_role("textbox", name="Work email").fill("priya@northwind.example")
    admin.get_by_role("textbox", name="Password").fill("not-the-password")
    admin.get_by_role("button", name="Sign in").click()

    expect(admin.get_by_role("alert")).to_have_text(
        "That email and password do not match an account."
    )
    assert admin.url.endswith("/login")
