"""Every dialog the app opens, and the editor's states other than writing, at phone and desktop
sizes, in English and Korean, light and dark: each one's screenshot (Tests/browser/screenshots/,
for a person to look at) and an axe-core audit that finds nothing.

The dialogs: the conflict's choice, the editor's More menu, the change of its date and time, the
delete's question and the Undo after it, a tag's rename, and the question before the trash is
emptied. The states: an entry in the trash (read, not written), one that does not exist, and one
never opened on this device while the connection is down."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import DESKTOP, PHONE, kept_for_offline, wait_for

SHOTS = Path(__file__).parent / "screenshots"

WORDS = {
    "en-US": {
        "title": "A walk by the river", "body": "The water was high after the rain, and the ducks had gone.",
        "theirs": "Written on the phone: the water was high, and it rained again on the way home.",
        "mine": " We stopped at the bridge to watch the current.",
        "conflict": "This entry was changed somewhere else", "keep_mine": "Keep mine", "yours": "Yours",
        "other": "The other version", "more": "More", "redate": "Change the date and time", "when": "Written on",
        "delete": "Delete", "confirm_delete": "Delete this entry?", "moved": "Moved to the trash.", "undo": "Undo",
        "cancel": "Cancel", "in_trash": "This entry is in the trash.", "restore": "Restore",
        "missing": "This entry does not exist.", "title_field": "Title", "body_field": "Write here",
        "rename": "Rename", "rename_tag": "Rename the tag {}", "new_name": "New name",
        "empty_trash": "Empty the trash", "confirm_empty": "Delete every entry in the trash for good? This cannot be undone.",
        "not_kept": "This entry has not been opened on this device yet, so it opens once the connection is back.",
        "tags": ["travel", "walks"],
    },
    "ko-KR": {
        "title": "강가 산책", "body": "비가 온 뒤라 물이 불어 있었고, 오리들은 어디론가 가 버렸다.",
        "theirs": "휴대폰에서 쓴 글: 물이 불어 있었고, 돌아오는 길에 비가 또 내렸다.",
        "mine": " 다리 위에 멈춰 서서 물살을 구경했다.",
        "conflict": "다른 곳에서 이 일기를 고쳤어요", "keep_mine": "내 글 남기기", "yours": "내 글",
        "other": "다른 곳의 글", "more": "더 보기", "redate": "날짜와 시간 바꾸기", "when": "쓴 날짜와 시간",
        "delete": "삭제", "confirm_delete": "정말로 삭제하시겠어요?", "moved": "휴지통으로 옮겼어요.", "undo": "실행 취소",
        "cancel": "취소", "in_trash": "휴지통에 있는 일기예요.", "restore": "복원",
        "missing": "없는 일기예요.", "title_field": "일기 제목", "body_field": "일기 내용",
        "rename": "이름 바꾸기", "rename_tag": "태그 {}의 이름 바꾸기", "new_name": "새 이름",
        "empty_trash": "휴지통 비우기", "confirm_empty": "휴지통의 일기를 모두 영구히 삭제하시겠어요? 되돌릴 수 없어요.",
        "not_kept": "이 기기에서 아직 연 적이 없는 일기라서, 다시 연결되면 열 수 있어요.",
        "tags": ["여행", "산책"],
    },
}


def settled(page):
    """Waits until nothing on the page is moving (a dialog's or a toast's entrance), so the
    picture shows the screen as it stays (polled from Python: the app's content policy refuses
    wait_for_function's eval)."""
    wait_for(lambda: page.evaluate("document.getAnimations().every((a) => a.playState !== 'running')"),
             message="the page to stop moving")


def shot(page, name):
    """A screenshot for a person to look at, and axe-core finding nothing on the same screen."""
    settled(page)
    page.screenshot(path=str(SHOTS / name))
    results = Axe().run(page)
    assert results.violations_count == 0, f"{name}:\n{results.generate_report()}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_every_dialog_and_editor_state_is_pictured_and_audited(pages, server, device, locale, scheme):
    SHOTS.mkdir(exist_ok=True)
    pages.allow_errors(r"status of (404|409)")
    w = WORDS[locale]
    name = lambda screen: f"{screen}-{device}-{locale}-{scheme}.png"
    options = PHONE if device == "phone" else DESKTOP
    server.load_sample()
    status, entry = server.api("POST", "entries", {"title": w["title"], "body": w["body"], "tags": w["tags"]})
    assert status == 201, entry
    page = pages.open(f"/#/entry/{entry['id']}", locale=locale, color_scheme=scheme, **options)
    title = page.get_by_role("textbox", name=w["title_field"])
    body = page.get_by_role("textbox", name=w["body_field"])
    expect(body).to_have_value(w["body"])

    # The conflict: the entry changed on another device while this page had it open.
    status, _ = server.api("PUT", f"entries/{entry['id']}", {"title": w["title"], "body": w["theirs"]},
                           headers={"If-Match": '"1"'})
    assert status == 200
    # The words in one go: typed a key at a time on a loaded machine, the half-second autosave
    # fired mid-sentence and the conflict showed half of them (CI, 2026-11-26).
    body.fill(w["body"] + w["mine"])
    body.blur()
    conflict = page.get_by_role("dialog", name=w["conflict"])
    expect(conflict.get_by_role("region", name=w["yours"])).to_contain_text(w["body"] + w["mine"])
    expect(conflict.get_by_role("region", name=w["other"])).to_contain_text(w["theirs"])
    # Both buttons in view, neither pushed out by the versions' text.
    for button in conflict.get_by_role("button").all():
        expect(button).to_be_in_viewport()
    shot(page, name("conflict"))
    conflict.get_by_role("button", name=w["keep_mine"]).click()
    expect(conflict).to_have_count(0)
    expect(body).to_have_value(w["body"] + w["mine"])

    # The More menu, and the change of the date and time it opens.
    page.get_by_role("button", name=w["more"], exact=True).click()
    menu = page.get_by_role("dialog", name=w["more"])
    expect(menu.get_by_role("button")).to_have_count(4)  # share, the date, delete, cancel
    shot(page, name("editor-menu"))
    menu.get_by_role("button", name=w["redate"]).click()
    redate = page.get_by_role("dialog", name=w["redate"])
    expect(redate.get_by_label(w["when"])).to_be_visible()
    # The field and its focus ring clear of the buttons under it.
    field, under = redate.get_by_label(w["when"]).bounding_box(), redate.get_by_role("button").first.bounding_box()
    assert field["y"] + field["height"] + 8 <= under["y"], (field, under)
    shot(page, name("redate"))
    redate.get_by_role("button", name=w["cancel"]).click()
    expect(redate).to_have_count(0)

    # An entry that is not there at all.
    page.goto("/#/entry/00000000-0000-4000-8000-000000000000")
    expect(page.locator(".editor .notice")).to_have_text(w["missing"])  # and nothing else
    expect(page.get_by_role("textbox")).to_have_count(0)
    shot(page, name("editor-missing"))

    # A tag's rename.
    page.goto("/#/tags")
    tag = w["tags"][0]
    page.get_by_role("button", name=w["rename_tag"].format(tag)).click()
    rename = page.get_by_role("dialog", name=w["rename_tag"].format(tag))
    expect(rename.get_by_role("textbox", name=w["new_name"])).to_have_value(tag)
    shot(page, name("tag-rename"))
    rename.get_by_role("button", name=w["cancel"]).click()
    expect(rename).to_have_count(0)

    # In the trash (moved there elsewhere), the entry opens read-only, offering to restore it: its
    # tags show, with nothing to remove or add one.
    server.api("DELETE", f"entries/{entry['id']}")
    page.goto(f"/#/entry/{entry['id']}")
    expect(page.get_by_text(w["in_trash"])).to_be_visible()
    expect(page.get_by_role("button", name=w["restore"])).to_be_visible()
    expect(title).not_to_be_editable()
    expect(title).to_have_value(w["title"])
    expect(page.locator(".entry-tags .tag")).to_have_text(w["tags"])
    expect(page.locator(".tag-remove")).to_have_count(0)
    expect(page.locator(".tag-field")).to_be_hidden()
    shot(page, name("editor-trashed"))

    # The question before the trash is emptied.
    page.goto("/#/trash")
    expect(page.locator(".trash-row")).to_have_count(1)
    page.get_by_role("button", name=w["empty_trash"]).click()
    empty = page.get_by_role("dialog", name=w["confirm_empty"])
    expect(empty.get_by_role("button", name=w["empty_trash"])).to_be_visible()
    shot(page, name("empty-trash"))
    empty.get_by_role("button", name=w["cancel"]).click()
    expect(empty).to_have_count(0)
    assert len(server.trash()) == 1

    # Delete, from the editor opened from the list: the question, then Undo at the bottom of the
    # list it goes back to.
    server.api("POST", f"entries/{entry['id']}/restore")
    page.goto("/")
    page.reload()  # the list asked for afresh: the entry is back
    page.get_by_role("link", name=w["title"]).click()
    expect(title).to_be_editable()
    page.get_by_role("button", name=w["more"], exact=True).click()
    page.get_by_role("dialog", name=w["more"]).get_by_role("button", name=w["delete"]).click()
    confirm = page.get_by_role("dialog", name=w["confirm_delete"])
    expect(confirm.get_by_role("button")).to_have_count(2)
    shot(page, name("delete-confirm"))
    confirm.get_by_role("button", name=w["delete"]).click()
    toast = page.get_by_role("status").filter(has_text=w["moved"])
    expect(toast.get_by_role("button", name=w["undo"])).to_be_visible()
    expect(page.locator(".row-title").first).not_to_have_text(w["title"])
    box = toast.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= options["viewport"]["width"]
    assert box["y"] + box["height"] <= options["viewport"]["height"]
    shot(page, name("undo-toast"))

    # Offline, an entry never opened on this device: its row is kept, its text is not.
    pages.allow_errors(r"Failed to load resource|ERR_INTERNET_DISCONNECTED|Failed to fetch")
    context = pages.context(locale, color_scheme=scheme, **options)
    offline = context.new_page()
    offline.goto("/")
    expect(offline.locator(".row")).to_have_count(15)
    kept_for_offline(offline)
    context.set_offline(True)
    offline.locator(".row-link").first.click()
    expect(offline.get_by_text(w["not_kept"])).to_be_visible()
    expect(offline.get_by_role("textbox", name=w["body_field"])).to_be_hidden()
    shot(offline, name("editor-not-kept"))
