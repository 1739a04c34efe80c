"""The setup page from another computer asks for the one-time code `diary serve` printed, in the
browser's language, and makes the account once it has it. Another computer is played through a
trusted proxy's X-Forwarded-For, which the server believes with --trust-proxy."""

import re
import tempfile

import pytest
from playwright.sync_api import expect

from conftest import Pages, Server

FROM_AFAR = {"X-Forwarded-For": "203.0.113.9"}
OWNER = {"name": "mina", "password": "a long enough password"}
WORDS = {
    "en-US": {"code": "Setup code", "create": "Create the account", "name": "Name", "password": "Password",
              "wrong": "not the one `diary serve` printed", "empty": "Your diary is empty."},
    "ko-KR": {"code": "설정 코드", "create": "계정 만들기", "name": "이름", "password": "비밀번호",
              "wrong": "설정 코드가 맞지 않아요", "empty": "아직 쓴 일기가 없어요."},
}


@pytest.fixture
def proxied_server():
    """A new diary behind a (pretend) trusted proxy."""
    with tempfile.TemporaryDirectory(prefix="diary-browser-") as folder:
        srv = Server(folder, account=False)
        srv.extra_args = ["--trust-proxy"]
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def far_pages(browser, proxied_server):
    opened = Pages(browser, proxied_server)
    yield opened
    opened.close()
    assert opened.unexpected_errors() == [], "the pages logged errors"


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_setup_page_from_another_computer_asks_for_the_printed_code(far_pages, proxied_server, locale):
    w = WORDS[locale]
    code = re.search(r"one-time code: (\S+)", proxied_server.log_path.read_text()).group(1)
    # The proxy names a client on the server's own computer: no code is asked for.
    here = far_pages.open("/", locale=locale, log_in=False, extra_http_headers={"X-Forwarded-For": "127.0.0.1"})
    expect(here.get_by_role("button", name=w["create"])).to_be_visible()
    expect(here.get_by_label(w["code"])).to_have_count(0)

    page = far_pages.open("/", locale=locale, log_in=False, extra_http_headers=FROM_AFAR)
    page.get_by_role("textbox", name=w["name"]).fill(OWNER["name"])
    page.get_by_label(w["password"]).fill(OWNER["password"])
    page.get_by_role("textbox", name=w["code"]).fill("2345-6789-ABCD-EFGH")
    page.get_by_role("button", name=w["create"]).click()

    expect(page.get_by_role("alert")).to_contain_text(w["wrong"])
    far_pages.allow_errors(r"status of 403 \(Forbidden\)")
    page.get_by_role("textbox", name=w["code"]).fill(code.lower())
    page.get_by_role("button", name=w["create"]).click()
    expect(page.get_by_text(w["empty"])).to_be_visible()
