"""Game messages on the game page and in the admin: writing, reading, reporting and hiding."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.throttling import ScopedRateThrottle

from games import services
from games.models import Game, GameMessage, MessageReport
from moderation.models import AuditEntry
from tests.accounts.factories import make_superuser
from tests.games.messaging import make_message_moderator, post

pytestmark = pytest.mark.django_db

PLACEHOLDER = "This message was hidden by a moderator."


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def flashes(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def write(client: Client, game: Game, body: str):
    return client.post(
        reverse("games:game_message_post", args=[game.pk]), {"body": body}, follow=True
    )


def report(client: Client, message: GameMessage, reason: str):
    url = reverse("games:game_message_report", args=[message.game_id, message.pk])
    return client.post(url, {"reason": reason}, follow=True)


def hide(client: Client, message: GameMessage, reason: str):
    url = reverse("games:game_message_hide", args=[message.game_id, message.pk])
    return client.post(url, {"reason": reason}, follow=True)


@pytest.fixture
def moderator():
    return make_message_moderator()


@pytest.fixture
def hello(game, alice) -> GameMessage:
    return post(game, alice, "Good luck & have fun!")


# --- the panel ----------------------------------------------------------------------------


def test_a_player_writes_through_the_form_and_sees_it(game, alice):
    client = logged_in(alice)

    response = write(client, game, "Hello <b>Bob</b>")

    url = reverse("games:game", args=[game.pk])
    assert response.redirect_chain == [(f"{url}#messages", 302)]
    assert flashes(response) == ["Your message is sent."]
    assert GameMessage.objects.get().body == "Hello <b>Bob</b>"
    html = response.content.decode()
    assert '<li class="chat-msg mine"' in html
    assert "Hello &lt;b&gt;Bob&lt;/b&gt;" in html  # escaped, never rendered as markup
    assert 'name="body"' in html and "Write to bob" in html


def test_the_opponent_sees_it_with_the_author_and_a_report_form(hello, bob):
    html = page(logged_in(bob), hello.game)

    assert f'<li class="chat-msg" id="message-{hello.pk}">' in html
    assert ">alice</span>" in html
    assert "Good luck &amp; have fun!" in html
    assert reverse("games:game_message_report", args=[hello.game_id, hello.pk]) in html
    assert reverse("games:game_message_hide", args=[hello.game_id, hello.pk]) not in html


def test_an_empty_message_is_refused_with_the_reason(game, alice):
    response = write(logged_in(alice), game, "   ")

    assert flashes(response) == ["The message is empty: write 1 to 2000 characters."]
    assert not GameMessage.objects.exists()


def test_a_spectator_reads_but_cannot_write(hello, carol):
    client = logged_in(carol)
    html = page(client, hello.game)

    assert "Good luck &amp; have fun!" in html
    assert 'name="body"' not in html
    response = write(client, hello.game, "Let me in")
    assert flashes(response) == [f"You are not a player in game #{hello.game_id}."]
    assert GameMessage.objects.count() == 1


def test_a_guest_reads_and_is_asked_to_log_in(hello, client):
    html = page(client, hello.game)

    assert "Good luck &amp; have fun!" in html
    assert 'name="body"' not in html and 'name="reason"' not in html
    assert "to report a message" in html
    response = client.post(reverse("games:game_message_post", args=[hello.game_id]), {"body": "x"})
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert GameMessage.objects.count() == 1


def test_no_messages_yet(game, alice):
    assert "No messages yet. Say hello to your opponent." in page(logged_in(alice), game)


def test_a_private_game_is_404_to_outsiders(alice, bob, carol):
    private = services.game_start(players=[alice, bob], public=False)
    secret = post(private, alice, "secret")
    client = logged_in(carol)

    assert (
        client.post(
            reverse("games:game_message_post", args=[private.pk]), {"body": "x"}
        ).status_code
        == 404
    )
    url = reverse("games:game_message_report", args=[private.pk, secret.pk])
    assert client.post(url, {"reason": "x"}).status_code == 404
    assert GameMessage.objects.count() == 1 and not MessageReport.objects.exists()


def test_web_posts_share_the_api_throttle(game, alice, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "messages", "1/hour")
    client = logged_in(alice)
    write(client, game, "one")

    response = write(client, game, "two")

    assert flashes(response) == ["You have written too many messages; try again in 60 minute(s)."]
    assert list(GameMessage.objects.values_list("body", flat=True)) == ["one"]


# --- reporting and hiding on the page -----------------------------------------------------


def test_a_reader_reports_through_the_form_once(hello, carol):
    client = logged_in(carol)

    first = report(client, hello, "Rude")
    second = report(client, hello, "Rude again")

    assert flashes(first) == ["Thank you: the moderators will look at this message."]
    assert flashes(second) == [
        f"You have already reported message #{hello.pk}; the moderators will look at it."
    ]
    assert list(MessageReport.objects.values_list("reporter__username", "reason")) == [
        ("carol", "Rude")
    ]


def test_the_author_has_no_report_form_on_their_own_message(hello, alice):
    html = page(logged_in(alice), hello.game)

    assert reverse("games:game_message_report", args=[hello.game_id, hello.pk]) not in html


def test_a_moderator_hides_from_the_page_and_readers_see_a_placeholder(hello, moderator, bob):
    mod_client = logged_in(moderator)

    response = hide(mod_client, hello, "Insults")

    assert flashes(response) == ["The message is hidden; the audit log has your reason."]
    moderator_html = response.content.decode()
    assert "Good luck &amp; have fun!" in moderator_html
    assert "Hidden from readers: Insults" in moderator_html
    bob_html = page(logged_in(bob), hello.game)
    assert PLACEHOLDER in bob_html
    assert "Good luck" not in bob_html and "Insults" not in bob_html
    assert ">alice</span>" in bob_html  # the author and time stay
    assert AuditEntry.objects.get().action == "message_hide"


def test_a_player_cannot_hide(hello, bob):
    response = hide(logged_in(bob), hello, "I don't like it")

    assert flashes(response) == ["Only moderators can hide messages."]
    hello.refresh_from_db()
    assert not hello.is_hidden


# --- the admin ----------------------------------------------------------------------------

CHANGELIST = reverse("admin:games_gamemessage_changelist")


def test_the_admin_lists_messages_with_their_open_reports(hello, bob, carol):
    services.message_report(game_id=hello.game_id, message_id=hello.pk, reporter=bob, reason="a")
    services.message_report(game_id=hello.game_id, message_id=hello.pk, reporter=carol, reason="b")
    client = logged_in(make_superuser())

    response = client.get(CHANGELIST)

    [row] = response.context["cl"].result_list
    assert (row, row.open_report_count, row.report_count) == (hello, 2, 2)
    assert "2 (2)" in response.content.decode()


def test_the_admin_hide_action_asks_for_a_reason_then_hides(hello, bob, moderator):
    other = post(hello.game, bob, "Thanks")
    services.message_report(game_id=hello.game_id, message_id=hello.pk, reporter=bob, reason="a")
    client = logged_in(moderator)
    selected = {"action": "hide", "_selected_action": [hello.pk, other.pk]}

    ask = client.post(CHANGELIST, selected)
    without_reason = client.post(CHANGELIST, {**selected, "confirm": "yes", "reason": ""})
    done = client.post(CHANGELIST, {**selected, "confirm": "yes", "reason": "Spam"}, follow=True)

    assert ask.status_code == 200 and "Hide messages" in ask.content.decode()
    assert "Good luck &amp; have fun!" in ask.content.decode()
    assert without_reason.status_code == 200
    assert without_reason.context["form"].errors == {"reason": ["This field is required."]}
    assert "Hide messages: 2 done." in [str(m) for m in done.context["messages"]]
    assert set(GameMessage.objects.values_list("hidden_reason", flat=True)) == {"Spam"}
    assert MessageReport.objects.get().resolved_at is not None
    assert AuditEntry.objects.filter(action="message_hide").count() == 2


def test_the_admin_action_reports_messages_already_hidden(hello, moderator):
    services.message_hide(
        game_id=hello.game_id, message_id=hello.pk, moderator=moderator, reason="x"
    )
    client = logged_in(moderator)

    response = client.post(
        CHANGELIST,
        {"action": "hide", "_selected_action": [hello.pk], "confirm": "yes", "reason": "y"},
        follow=True,
    )

    [error] = [str(m) for m in response.context["messages"]]
    assert error.startswith(f"{hello}: Message #{hello.pk} was already hidden on ")
    assert AuditEntry.objects.count() == 1


def test_the_report_admin_filters_open_and_resolved(hello, bob, carol, moderator):
    post_two = post(hello.game, bob, "second")
    services.message_report(game_id=hello.game_id, message_id=hello.pk, reporter=carol, reason="a")
    services.message_report(
        game_id=hello.game_id, message_id=post_two.pk, reporter=carol, reason="b"
    )
    services.message_hide(
        game_id=hello.game_id, message_id=hello.pk, moderator=moderator, reason="x"
    )
    client = logged_in(make_superuser())
    url = reverse("admin:games_messagereport_changelist")

    open_reports = client.get(url, {"state": "open"}).context["cl"].result_list
    resolved = client.get(url, {"state": "resolved"}).context["cl"].result_list

    assert [r.reason for r in open_reports] == ["b"]
    assert [r.reason for r in resolved] == ["a"]


def test_the_annul_action_still_asks_for_a_reason(game):
    client = logged_in(make_superuser())
    url = reverse("admin:games_game_changelist")
    selected = {"action": "annul", "_selected_action": [game.pk]}

    ask = client.post(url, selected)
    client.post(url, {**selected, "confirm": "yes", "reason": "Cheating"})

    assert f"{game} — In progress" in ask.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ANNULLED
    assert AuditEntry.objects.get().reason == "Cheating"


def test_the_panel_names_players_by_their_display_name(hello, bob):
    profile = hello.author.profile
    profile.display_name = "Alice Ó Briain"
    profile.save(update_fields=["display_name"])

    html = page(logged_in(bob), hello.game)

    assert ">Alice Ó Briain</span>" in html
    assert "Write to Alice Ó Briain" in html
