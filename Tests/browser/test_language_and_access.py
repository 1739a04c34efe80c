"""Korean and English, accessible names, and an axe-core audit of each screen."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import PHONE


def test_korean_browsers_get_korean_strings_and_dates(pages, server):
    server.load_sample()
    page = pages.open("/", locale="ko-KR")
    expect(page.locator("html")).to_have_attribute("lang", "ko")  # set once the strings have come
    expect(page.get_by_role("heading", level=1)).to_have_text("일기장")
    expect(page.get_by_role("link", name="새 일기")).to_be_visible()
    expect(page.get_by_role("heading", level=2)).to_have_text(["2020년 12월"])
    expect(page.locator(".row-weekday").first).to_have_text("화")
    expect(page.locator(".row time").first).to_contain_text("2020년 12월 22일")

    first = page.locator(".row-title").first.text_content()
    page.get_by_role("button", name=f"“{first}” 더 보기").first.click()
    menu = page.get_by_role("dialog")
    expect(menu.get_by_role("button")).to_have_text(["즐겨찾기", "공유", "삭제", "취소"])
    menu.get_by_role("button", name="삭제").click()
    confirm = page.get_by_role("dialog", name="정말로 삭제하시겠어요?")
    expect(confirm.get_by_role("button")).to_have_text(["삭제", "취소"])
    confirm.get_by_role("button", name="취소").click()

    page.get_by_role("link", name="새 일기").click()
    expect(page.get_by_role("textbox", name="일기 제목")).to_have_attribute("placeholder", "일기 제목")
    expect(page.get_by_role("textbox", name="일기 내용")).to_have_attribute("placeholder", "일기 내용")
    page.get_by_role("link", name="목록으로").click()
    page.locator(".row-link").first.click()
    # Beside the list on this wide screen, the entry's date heads its page.
    expect(page.locator(".entry-date")).to_have_text("2020년 12월 22일 화요일")


def test_english_browsers_get_english_placeholders(pages, server):
    page = pages.open("/#/new")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # set once the strings have come
    expect(page.get_by_role("textbox", name="Title")).to_have_attribute("placeholder", "Title")
    expect(page.get_by_role("textbox", name="Write here")).to_have_attribute("placeholder", "Write here")


def test_every_control_has_a_name_and_a_visible_focus(pages, server):
    server.load_sample()
    page = pages.open("/")
    expect(page.locator(".row")).to_have_count(15)
    unnamed = page.evaluate("""() => [...document.querySelectorAll('a, button, input, textarea')]
        .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()))
        .map(e => e.outerHTML)""")
    assert unnamed == []
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def audit(page):
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_axe_finds_no_violations_in_the_list_account_menu_editor_and_trash(pages, server, locale, scheme):
    server.load_sample()
    page = pages.open("/", locale=locale, color_scheme=scheme)
    expect(page.locator(".row")).to_have_count(15)
    audit(page)
    page.get_by_role("button", name="Account" if locale == "en-US" else "계정").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    audit(page)
    page.keyboard.press("Escape")
    page.get_by_role("searchbox").fill("serenity")
    expect(page.locator("mark").first).to_be_visible()
    audit(page)
    page.locator(".row-link:visible").first.click()
    expect(page.locator(".title-field")).not_to_have_value("")
    audit(page)
    page.goto("/#/new")
    expect(page.locator(".title-field")).to_be_focused()
    audit(page)
    page.goto("/#/trash")
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash" if locale == "en-US" else "휴지통")
    expect(page.locator(".notice")).to_be_visible()
    audit(page)


COLOURS = """() => {
  const style = (selector) => getComputedStyle(document.querySelector(selector));
  return {
    page: [style('body').backgroundColor, style('body').color],
    bar: [style('.bar').backgroundColor, style('.bar h1').color],
    search: [style('.search-field').backgroundColor, style('.search-field').color],
    row: [style('.row-main').backgroundColor, style('.row-title').color],
    dialog: [style('dialog[open]').backgroundColor, style('dialog[open]').color],
  };
}"""


def luminance(colour):
    """The relative luminance (WCAG) of a computed `rgb(r, g, b)`."""
    channels = [int(c) / 255 for c in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_a_dark_system_gets_light_text_on_a_dark_page(pages, server):
    """The dark colours apply (were the media query or its variables to break, the page would
    stay light and every dark screenshot and audit would test the light one)."""
    server.load_sample()
    seen = {}
    for scheme in ("light", "dark"):
        page = pages.open("/", color_scheme=scheme, **PHONE)
        expect(page.locator(".row")).to_have_count(15)
        page.locator(".row-more").first.click()  # a dialog: lifted from the page by its own colour
        expect(page.get_by_role("dialog")).to_be_visible()
        seen[scheme] = page.evaluate(COLOURS)
    for part in seen["light"]:
        (light_bg, light_fg), (dark_bg, dark_fg) = seen["light"][part], seen["dark"][part]
        assert luminance(light_bg) > 0.8 and luminance(light_fg) < 0.05, (part, seen["light"][part])
        assert luminance(dark_bg) < 0.05 and luminance(dark_fg) > 0.7, (part, seen["dark"][part])


def test_axe_finds_no_violations_on_a_phone_with_the_menu_open(pages, server):
    server.load_sample()
    page = pages.open("/", **PHONE)
    expect(page.locator(".row")).to_have_count(15)
    page.locator(".row-more").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    audit(page)


STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"


def test_the_app_runs_under_a_strict_content_security_policy(pages, server):
    """No inline script, handler or style attribute: a CSP violation is a console error."""
    server.load_sample()
    context = pages.context()

    def with_csp(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})

    context.route(lambda url: "/api/" not in url, with_csp)
    page = context.new_page()
    third_party = []
    page.on("request", lambda r: r.url.startswith(server.url) or third_party.append(r.url))
    page.goto("/")
    expect(page.locator(".row")).to_have_count(15)
    page.locator(".row-more").first.click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    page.locator(".row-link").first.click()
    page.get_by_role("textbox", name="Title").press("End")
    page.keyboard.type(" and more")
    page.get_by_role("link", name="Back to the list").click()
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_text("The trash is empty.")).to_be_visible()
    assert third_party == [], "the app asks nothing of anyone but its own server"
