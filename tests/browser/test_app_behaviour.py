"""The apps behave like the real things their capabilities name, as a user sees them."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from automium.execution.contexts import fixture_context
from automium.hosting import AppServer


def test_todo_mvc_adds_counts_filters_clears_and_deletes_and_keeps_its_list(
    chromium_browser: Browser,
) -> None:
    with AppServer("todo-mvc", "todo-mvc.empty") as server:
        context = fixture_context(chromium_browser, "todo-mvc", "todo-mvc.empty")
        page = context.new_page()
        page.goto(server.url + "/")
        new = page.get_by_role("textbox", name="What needs to be done?")
        for title in ("Buy milk", "Walk the dog", "Pay rent"):
            new.fill(title)
            new.press("Enter")
        count = page.get_by_role("status", name="Items left")
        expect(count).to_have_text("3 items left")
        expect(new).to_have_value("")

        page.get_by_role("checkbox", name="Toggle Todo").first.check()
        expect(count).to_have_text("2 items left")
        page.get_by_role("link", name="Active").click()
        expect(page.get_by_role("listitem").filter(has_text="Buy milk")).to_have_count(0)
        page.get_by_role("link", name="Completed").click()
        expect(page.get_by_role("checkbox", name="Toggle Todo")).to_have_count(1)
        page.get_by_role("button", name="Clear completed").click()
        expect(page.get_by_role("checkbox", name="Toggle Todo")).to_have_count(0)
        expect(page.get_by_role("button", name="Clear completed")).to_be_hidden()

        page.goto(server.url + "/")
        page.get_by_role("button", name="Delete").last.click()
        page.reload()
        rows = page.get_by_role("list").first.get_by_role("listitem")
        expect(rows).to_have_count(1)
        expect(rows).to_contain_text("Walk the dog")
        expect(count).to_have_text("1 item left")
        context.close()

        fresh = fixture_context(chromium_browser, "todo-mvc", "todo-mvc.empty")
        again = fresh.new_page()
        again.goto(server.url + "/")
        expect(again.get_by_role("main")).to_be_hidden()  # a new run starts from the seed
        fresh.close()


def test_shop_lite_searches_paginates_signs_in_and_keeps_a_cart_to_the_order_history(
    chromium_browser: Browser,
) -> None:
    with AppServer("shop-lite", "shop-lite.guest-empty-cart") as server:
        context = fixture_context(chromium_browser, "shop-lite", "shop-lite.guest-empty-cart")
        page = context.new_page()
        page.goto(server.url + "/checkout")
        expect(page).to_have_url(server.url + "/login")  # a guest is sent to sign in

        page.goto(server.url + "/")
        page.get_by_role("searchbox", name="Search").fill("mug")
        page.get_by_role("searchbox", name="Search").press("Enter")
        expect(page.get_by_role("status", name="Result count")).to_have_text("7 results")
        pages = page.get_by_role("navigation", name="Pagination")
        expect(pages).to_contain_text("Page 1 of 2")
        page.get_by_role("link", name="Next page").click()
        expect(pages).to_contain_text("Page 2 of 2")
        page.get_by_role("combobox", name="Sort by").select_option("Price: high to low")
        expect(page.get_by_role("list", name="Results").get_by_role("link").first).to_have_text(
            "Oak mug rack"
        )

        page.goto(server.url + "/products/linen-tea-towel")
        page.get_by_role("spinbutton", name="Quantity").fill("2")
        page.get_by_role("button", name="Add to cart").click()
        expect(page.get_by_role("status", name="Cart updates")).to_have_text("Added to cart")
        page.get_by_role("link", name="Cart").click()
        expect(page.get_by_role("heading", name="Your cart")).to_be_visible()
        expect(page.get_by_role("table", name="Cart items").get_by_role("row").last).to_have_text(
            re.compile(r"Linen tea towel\s*2\s*\$19\.00")
        )

        page.goto(server.url + "/login")
        page.get_by_role("textbox", name="Email").fill("ada@example.com")
        page.get_by_role("textbox", name="Password").fill("not the password")
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("alert")).to_have_text(
            "That email and password do not match an account."
        )
        page.get_by_role("textbox", name="Password").fill("analytical-engine-1843")
        page.get_by_role("button", name="Sign in").click()
        expect(page).to_have_url(server.url + "/")

        page.goto(server.url + "/checkout")
        expect(page.get_by_role("region", name="Order summary")).to_have_text("2 items, $19.00")
        page.get_by_role("button", name="Place order").click()
        expect(page).to_have_url(server.url + "/orders/1043/confirmation")
        expect(page.get_by_role("status", name="Order number")).to_have_text("Order #1043")
        page.get_by_role("link", name="View your orders").click()
        expect(
            page.get_by_role("table", name="Past orders").get_by_role("row").nth(1)
        ).to_contain_text("Order #1043")
        page.goto(server.url + "/cart")
        expect(page.get_by_role("heading", name="Your cart is empty")).to_be_visible()
        context.close()
