"""Who may call the API is said once: every view states ``permission_classes`` (the matrix in
tests/security checks each cell); none decides in its own ``get_permissions``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import get_resolver, reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.views import APIView

from moderation.services import moderators_group_sync
from notifications.models import OutboxEmail
from tests.accounts.factories import make_staff, make_superuser, make_user
from tests.security.test_permission_matrix import _routes

pytestmark = pytest.mark.django_db


def _api_views() -> list[type[APIView]]:
    views = []
    for route, pattern in _routes(get_resolver().url_patterns):
        view = getattr(pattern.callback, "cls", None)
        if route.startswith("/api/v1/") and view is not None:
            views.append(view)
    return views


def test_no_api_view_overrides_get_permissions():
    views = _api_views()

    assert len(views) > 50
    assert [v.__qualname__ for v in views if v.get_permissions is not APIView.get_permissions] == []


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/api/v1/leagues/", "/api/v1/ladders/"])
def test_a_list_is_read_by_anyone_and_written_only_when_logged_in(client, path):
    assert client.get(path).status_code == 200
    assert client.post(path, {}, content_type="application/json").status_code == 401
    # A method the view does not answer is refused as such, login or not.
    assert client.patch(path, {}, content_type="application/json").status_code == 405


def test_the_document_says_reading_is_open_and_writing_needs_credentials():
    schema = SchemaGenerator().get_schema(public=True)
    listing = schema["paths"]["/api/v1/tournaments/"]

    assert {} in listing["get"]["security"]
    assert {} not in listing["post"]["security"]
    assert {} not in schema["paths"]["/api/v1/tournaments/{tournament_id}/"]["patch"]["security"]


# --- The outbox in the admin: moderators read it, nobody but a superuser changes it --------


@pytest.fixture
def outbox_row():
    user = make_user("alice")
    return OutboxEmail.objects.create(
        recipient=user,
        to_address="alice@example.org",
        event="game_message",
        subject="Your move",
        body_text="It is your move.",
        dedupe_key="permissions-outbox",
        next_attempt_at=timezone.now(),
    )


def _admin_user(role: str) -> User:
    if role == "superuser":
        return make_superuser("root")
    user = make_staff("frank" if role == "staff" else "mod")
    if role == "moderator":
        user.groups.add(moderators_group_sync())
    return User.objects.get(pk=user.pk)


@pytest.mark.parametrize(
    ("role", "reads", "changes"),
    [("staff", 403, 403), ("moderator", 200, 403), ("superuser", 200, 302)],
)
def test_a_moderator_reads_the_outbox_in_the_admin_but_cannot_change_it(
    client, outbox_row, role, reads, changes
):
    client.force_login(_admin_user(role))
    change = reverse("admin:notifications_outboxemail_change", args=[outbox_row.pk])

    listing = client.get(reverse("admin:notifications_outboxemail_changelist"))
    row = client.get(change)
    saved = client.post(change, {"status": "failed"})

    assert (listing.status_code, row.status_code, saved.status_code) == (reads, reads, changes)
    if reads == 200:
        assert "Your move" in row.content.decode()
    assert OutboxEmail.objects.get().status == OutboxEmail.Status.PENDING


@pytest.mark.parametrize("role", ["staff", "moderator"])
def test_an_admin_refusal_is_the_admins_own_page(client, outbox_row, role):
    """Not Django's bare "403 Forbidden": the admin's header, the reason, a way back."""
    client.force_login(_admin_user(role))
    change = reverse("admin:notifications_outboxemail_change", args=[outbox_row.pk])

    refused = client.post(change, {"status": "failed"})

    page = refused.content.decode()
    assert refused.status_code == 403
    assert 'id="site-name"' in page and reverse("admin:index") in page
    assert "You do not have permission" in page


# --- Issue #28's pages: the calendar feed's secret, the notes, the takeback forms ----------------


@pytest.fixture
def feed_world():
    from accounts.services import calendar_feed_renew
    from games import services
    from tests.accounts.factories import make_moderator, make_superuser, make_user

    owner, opponent = make_user("owner"), make_user("rival")
    game = services.game_start(players=[owner, opponent], public=False)
    services.game_note_save(game_id=game.pk, user=owner, body="my secret plan")
    roles = {
        "anonymous": None,
        "owner": owner,
        "opponent": opponent,
        "moderator": make_moderator(),
        "superuser": make_superuser(),
    }
    return {"secret": calendar_feed_renew(user=owner).secret, "game": game, "roles": roles}


@pytest.mark.parametrize("role", ["anonymous", "owner", "opponent", "moderator", "superuser"])
def test_feeds_answer_only_their_secret_and_notes_only_their_owner(feed_world, role):
    from django.test import Client
    from django.urls import reverse

    client = Client()
    if feed_world["roles"][role] is not None:
        client.force_login(feed_world["roles"][role])
    game = feed_world["game"]

    # A feed needs its secret, whoever asks (a login opens none).
    assert client.get("/calendar/").status_code == 404
    assert client.get("/calendar/not-the-secret.ics").status_code == 404
    assert client.get(f"/calendar/{feed_world['secret']}.ics").status_code == 200
    # The notes are their owner's alone, moderators included (the API: the matrix rows).
    page = client.get(reverse("games:game", args=[game.pk]))
    assert ("my secret plan" in page.content.decode()) == (role == "owner")
    note_post = client.post(reverse("games:game_note_save", args=[game.pk]), {"body": "x"})
    # The players are sent back to the game (anonymous: to the login); others find no notes.
    assert note_post.status_code == (404 if role in ("moderator", "superuser") else 302)
    # No one takes anything back here: a rated game made without takebacks, nothing played.
    client.post(reverse("games:game_takeback", args=[game.pk]), {"ply": 0})
    assert not game.takeback_requests.exists()
