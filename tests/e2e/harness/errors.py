"""Reading an error as a person does: the sentence first, then a click on its "Details" to see
the technical side (ui/src/lib/ErrorNotice.svelte, ErrorDetails.svelte)."""
from .wait import wait_for

# What a raw error chain looks like; none of it may be in the sentence a person reads first.
CHAIN_MARKERS = ("os error", "error sending request", "builder error", "Caused by", "io error",
                 "No such file", "Error:", "{", "panicked")


def assert_plain(text):
    """Fails when `text` (what a person reads before any click) shows a raw error chain."""
    for marker in CHAIN_MARKERS:
        assert marker not in text, f"{marker!r} shown before Details was clicked: {text!r}"


def open_details(app, container):
    """Checks the detail inside `container` is not in the page before the click, clicks its
    Details button as a person would, and returns the detail's text."""
    wd = app.wd
    assert not wd.find_in(container, '[data-testid="error-detail"]'), "the detail showed before the click"
    toggle = wait_for("the Details button", lambda: wd.find_in(container, '[data-testid="error-details-toggle"]'))[0]
    assert wd.text(toggle) == "Details", wd.text(toggle)
    wd.click(toggle)
    detail = wait_for("the detail", lambda: wd.find_in(container, '[data-testid="error-detail"]'))[0]
    return wd.text(detail)
