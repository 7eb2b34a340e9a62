"""helpdesk behaves like the support desk its page model describes, in a real browser.

Each test carries out a reference journey of the app (or a step of one the model promises)
by hand, as a person would in ``automium apps serve``, and checks what the person sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from automium.hosting.bundles import app_root, secret
from automium.hosting.server import AppServer
from tests.browser.served import page_on, served, visit

APP = "helpdesk"
FILES = Path(str(app_root(APP) / "files"))
REPLY = "The printer was restarted and is back online. Please let us know if it happens again."


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, AppServer]]:
    with served(APP, ("helpdesk.agent-open-queue", "helpdesk.customer-new")) as started:
        yield started


@pytest.fixture
def agent(chromium_browser: Browser, servers: dict[str, AppServer]) -> Iterator[Page]:
    yield from page_on(chromium_browser, servers["helpdesk.agent-open-queue"], "/inbox")


@pytest.fixture
def customer(chromium_browser: Browser, servers: dict[str, AppServer]) -> Iterator[Page]:
    yield from page_on(chromium_browser, servers["helpdesk.customer-new"], "/inbox")


def _subjects(page: Page) -> Locator:
    """The ticket links of the queue's table: asserted web-first, as the page may still be
    rendering the list it was asked for."""
    return page.get_by_role("table", name="Tickets").get_by_role("link")


def test_a_reply_with_an_attachment_solves_the_ticket_and_the_notification_follows(
    agent: Page,
) -> None:
    agent.get_by_role("link", name="Printer offline on floor 3").click()
    agent.get_by_role("textbox", name="Reply").fill(REPLY)
    agent.get_by_role("button", name="Attach a file").set_input_files(
        FILES / "printer-status-page.png"
    )
    agent.get_by_role("combobox", name="Status").select_option("Solved")
    agent.get_by_role("button", name="Send reply").click()

    expect(agent.get_by_role("status", name="Notification")).to_have_text("Reply sent")
    expect(agent.get_by_role("combobox", name="Status")).to_have_value("Solved")
    reply = agent.get_by_role("region", name="Conversation").get_by_role("article").last
    expect(reply).to_contain_text(REPLY)
    expect(reply.get_by_role("list", name="Attachments")).to_have_text("printer-status-page.png")
    expect(agent.get_by_role("textbox", name="Reply")).to_have_text("")
    visit(agent, "/inbox")
    expect(_subjects(agent)).to_have_text(["VPN drops every hour", "New laptop for Sam Ortiz"])


def test_an_empty_reply_is_not_sent(agent: Page) -> None:
    visit(agent, "/tickets/1043")
    agent.get_by_role("button", name="Send reply").click()

    expect(agent.get_by_role("alert")).to_have_text("Write a reply or attach a file first.")
    expect(agent.get_by_role("status", name="Notification")).to_be_hidden()


def test_the_queue_filter_shows_the_pending_and_solved_tickets(agent: Page) -> None:
    queue = agent.get_by_role("combobox", name="Queue")
    queue.select_option("Pending")
    expect(_subjects(agent)).to_have_text(["Password reset email never arrives"])
    queue.select_option("All tickets")
    expect(_subjects(agent)).to_have_count(5)


def test_a_customer_opens_a_billing_ticket_in_two_steps(customer: Page) -> None:
    expect(customer.get_by_role("heading", name="My tickets")).to_be_visible()
    customer.get_by_role("link", name="Open a ticket").click()
    customer.get_by_role("combobox", name="Category").select_option("Billing")
    expect(customer.get_by_role("group", name="Step 2 of 2")).to_be_hidden()
    customer.get_by_role("button", name="Next").click()
    expect(customer.get_by_role("heading", name="Describe your issue")).to_be_visible()
    customer.get_by_role("textbox", name="Subject").fill("Charged twice for March")
    customer.get_by_role("textbox", name="Describe the problem").fill(
        "My card was charged twice for the March invoice. Please refund the duplicate charge."
    )
    customer.get_by_role("button", name="Attach a file").set_input_files(
        FILES / "invoice-march.pdf"
    )
    customer.get_by_role("checkbox", name="Email me updates").check()
    customer.get_by_role("button", name="Submit ticket").click()

    customer.wait_for_url("**/tickets/1045")
    expect(customer.get_by_role("heading", level=1)).to_have_text("Charged twice for March")
    expect(customer.get_by_role("status", name="Notification")).to_have_text(
        "Ticket created. We will reply by email."
    )
    expect(customer.get_by_role("list", name="Attachments")).to_have_text("invoice-march.pdf")
    customer.get_by_role("link", name="My tickets").click()
    expect(_subjects(customer)).to_have_text(["Charged twice for March"])


def test_step_two_keeps_what_was_typed_when_going_back(customer: Page) -> None:
    visit(customer, "/tickets/new")
    customer.get_by_role("button", name="Next").click()
    customer.get_by_role("textbox", name="Subject").fill("Cannot sign in")
    customer.get_by_role("button", name="Back").click()
    expect(customer.get_by_role("group", name="Step 2 of 2")).to_be_hidden()
    customer.get_by_role("combobox", name="Category").select_option("Account access")
    customer.get_by_role("button", name="Next").click()

    expect(customer.get_by_role("textbox", name="Subject")).to_have_value("Cannot sign in")


def test_a_ticket_without_a_subject_is_not_submitted(customer: Page) -> None:
    visit(customer, "/tickets/new")
    customer.get_by_role("button", name="Next").click()
    customer.get_by_role("button", name="Submit ticket").click()

    expect(customer.get_by_role("alert")).to_have_text(
        "Give the ticket a subject and describe the problem."
    )
    assert customer.url.endswith("/tickets/new")


def test_the_report_for_the_last_30_days_downloads_as_csv(agent: Page) -> None:
    visit(agent, "/reports")
    agent.get_by_role("combobox", name="Period").select_option("Last 30 days")
    expect(agent.get_by_role("region", name="Tickets solved")).to_contain_text(
        "168 solved, median first reply 44 minutes"
    )
    with agent.expect_download() as download:
        agent.get_by_role("button", name="Download CSV").click()

    assert download.value.suggested_filename == "report-last-30-days.csv"
    assert Path(download.value.path()).read_text("utf-8").splitlines() == [
        "Agent,Solved,First reply",
        "Omar Haddad,63,35 minutes",
        "Grace Kim,58,46 minutes",
        "Tobias Berg,47,52 minutes",
    ]
    assert agent.url.endswith("/reports")


def test_a_customer_is_sent_from_reports_to_their_tickets(customer: Page) -> None:
    visit(customer, "/reports")

    assert customer.url.endswith("/inbox")
    expect(customer.get_by_role("link", name="Reports")).to_have_count(0)


def test_the_agent_signs_in_to_the_inbox(agent: Page) -> None:
    visit(agent, "/login")
    agent.get_by_role("textbox", name="Email").fill("omar@helpdesk.example")
    password = secret(APP, "account:helpdesk/agent#password")
    agent.get_by_role("textbox", name="Password").fill(password)
    agent.get_by_role("button", name="Sign in").click()

    agent.wait_for_url("**/inbox")
    expect(agent.get_by_role("table", name="Tickets")).to_be_visible()
