"""Celtic Knot by email: the turn email (board, the other seats' turns, coins left), a move
made by replies (the square, then the destination; an extra move's flips at once), the result
with the whole finishing order and rating changes, and the seed kept out of every email."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.core import mail

from accounts.models import PushDevice
from accounts.selectors import profile_get
from games import services as game_services
from games.kinds.base import Step, StepKind
from games.models import Game
from games.png import board_png
from games.selectors import game_position
from notifications.events import deadline_reminders_queue, on_deadline_near
from notifications.inbound import inbound_email_receive
from notifications.models import InboundEmail, OutboxEmail, OutboxPush
from notifications.position import turns_since
from notifications.reply_tokens import reply_token_parse, tokens_in_address
from notifications.services import outbox_email_send
from rankings.selectors import rating_changes_for_game
from tests.accounts.factories import make_user
from tests.notifications.conftest import game_start_quietly

pytestmark = pytest.mark.django_db

#: With this seed, seat 1's stack on a1 can land on a2 (an opponent's coin): an extra move.
EXTRA_MOVE_SEED = "00" * 32
_ids = iter(range(1, 100_000))


@pytest.fixture(autouse=True)
def _moves_address(settings):
    settings.CELTIC_MOVES_ADDRESS = "moves@celtic.example"


@pytest.fixture
def players():
    return [make_user(name) for name in ("ann", "ben", "cai", "dee")]


def knot_game(players, *, seed: str | None = None, told: bool = False) -> Game:
    """A Celtic Knot game of ``players``, seat 1 to move; its start queued no email unless
    ``told`` (then seat 1 has its "your turn")."""
    start = game_services.game_start if told else game_start_quietly
    game = start(players=players, kind="knot")
    if seed is not None:  # before any flip: the flips to come are the seed's
        game.chance_seed = seed
        game.save(update_fields=["chance_seed"])
    return game


def play(game: Game, choice: str) -> Game:
    return game_services.move_submit(
        game_id=game.pk, user=game.user_to_move(), expected_ply=game.ply, notation=choice
    ).game


def play_turn(game: Game) -> Game:
    """The seat to move plays its first legal choice until its turn is over."""
    seat = game.seat_to_move
    while game.is_active and game.seat_to_move == seat:
        game = play(game, game_position(game=game).legal_choices()[0])
    return game


def reply(row: OutboxEmail, body: str) -> InboundEmail:
    """Answer ``row`` as a mail client does: to its Reply-To, "Re:" and the same subject."""
    message = EmailMessage()
    message["From"] = row.to_address
    message["To"] = row.reply_to
    message["Subject"] = f"Re: {row.subject}"
    message["Message-ID"] = f"<knot-{next(_ids)}@mail.example.org>"
    message.set_content(f"{body}\n\n> {row.subject}\n")
    return inbound_email_receive(raw=message.as_bytes())


def send(row: OutboxEmail) -> OutboxEmail:
    assert outbox_email_send(outbox_id=row.pk).status == "sent"
    row.refresh_from_db()
    return row


def latest(event: str, user) -> OutboxEmail:
    return OutboxEmail.objects.filter(event=event, recipient=user).latest("pk")


def points(flips: str) -> int:
    """Heads count 1, tails 2 (KNOT-RULES.md, movement)."""
    return sum(2 if flip == "T" else 1 for flip in flips)


def record_lines(game: Game) -> list[str]:
    """The turn lines of the game's record, as the kind writes them."""
    text = game.game_kind.record_text(game_position(game=game), {})
    return [line for line in text.splitlines() if line and not line.startswith("[")]


def test_the_turn_email_shows_the_board_the_other_seats_turns_and_the_coins_left(players):
    game = knot_game(players)
    for _ in range(5):  # seats 1 to 4, then seat 1 again: seat 2 is to move
        game = play_turn(game)
    assert game.seat_to_move == 2
    row = send(latest("your_turn", players[1]))
    lines = record_lines(game)
    names = game.game_kind.seat_names(4)
    # seats 3, 4 and 1 played since ben's last turn (the second line), oldest first
    for line in lines[2:]:
        assert f"{line} ({names[int(line.split()[0]) - 1]})." in row.body_text
    assert f"{lines[1]} (" not in row.body_text
    assert f"It is your move as Blue in game #{game.pk} against " in row.body_text
    assert "(move 6)" in row.body_text  # five turns played, whatever their steps
    assert "against ann, cai and dee" in row.body_text
    state = game_position(game=game)
    data = game.game_kind.position_data(state)
    assert "Coins left:\n- 1 Red, ann: " + str(data["coins"]["1"]) in row.body_text
    assert f"- 2 Blue, you: {data['coins']['2']}" in row.body_text
    assert game.game_kind.text(state) in row.body_text
    assert "Tiles left" not in row.body_text
    first = state.legal_choices()[0]
    assert f"reply with the square you move from, e.g. {first}" in row.body_text
    assert "f5 NE" not in row.body_text
    [sent] = [m for m in mail.outbox if m.subject == row.subject]
    [image] = [part for part in sent.attachments if part.get_content_type() == "image/png"]
    svg = game.game_kind.svg(state, viewer_seat=2)
    assert image.get_payload(decode=True) == board_png(svg)


def turn_emails(user) -> list[str]:
    """The dedupe keys of ``user``'s "your turn" rows, oldest first."""
    rows = OutboxEmail.objects.filter(event="your_turn", recipient=user).order_by("pk")
    return [row.dedupe_key for row in rows]


def assert_fresh_token(row: OutboxEmail, game: Game, user) -> None:
    """``row`` can be answered with the choice ``user`` has to make now in ``game``."""
    [token] = tokens_in_address(row.reply_to)
    parsed = reply_token_parse(token)
    assert (parsed.game_id, parsed.ply, parsed.user_id) == (game.pk, game.ply, user.pk)
    assert f"[celtic:{token}]" in row.subject


def send_answer(inbound: InboundEmail, user) -> OutboxEmail:
    """The answer to ``inbound``, sent: the only email it queued."""
    [row] = OutboxEmail.objects.filter(event="email_move_reply", recipient=user).filter(
        dedupe_key=f"email_move_reply:{inbound.pk}"
    )
    assert not OutboxEmail.objects.filter(pk__gt=row.pk).exists()
    return send(row)


def test_a_square_by_email_gets_one_answer_with_the_flips_and_a_destination_plays(players):
    ben, cai = players[1:3]
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED)
    game = play_turn(game)  # ann's turn, so that ben gets a turn email to answer
    row = send(latest("your_turn", ben))
    square = game_position(game=game).legal_choices()[0]
    before = OutboxEmail.objects.count()
    inbound = reply(row, square)
    assert inbound.outcome == "moved"
    game.refresh_from_db()
    data = game.game_kind.position_data(game_position(game=game))
    assert data["phase"] == "route"  # with this seed, the flips reach somewhere
    answer = send_answer(inbound, ben)  # one email, no "your turn" on top of it
    assert OutboxEmail.objects.count() == before + 1
    flips = data["flips"]
    assert inbound.notation == f"{square} {flips}"
    assert (
        f"You flipped {' '.join(flips)}: {points(flips)}. Reply with your destination: "
        f"{', '.join(data['destinations'])}." in answer.body_text
    )
    assert "reply with your destination: " in answer.body_text
    assert_fresh_token(answer, game, ben)
    destination = data["destinations"][-1]
    moved = reply(answer, destination)
    assert (moved.outcome, moved.notation.split()[0]) == ("moved", destination)
    second = send_answer(moved, ben)
    assert f"Your stack on {square} moved to {destination}." in second.body_text
    game.refresh_from_db()
    while game.seat_to_move == 2:  # extra moves, by email too, until the turn passes
        second = send_answer(reply(second, game_position(game=game).legal_choices()[0]), ben)
        game.refresh_from_db()
    assert "It is cai's move; we will email you when it is yours." in second.body_text
    assert not second.reply_to
    assert turn_emails(ben) == [row.dedupe_key]
    assert turn_emails(cai) == [f"your_turn:{game.pk}:{game.ply}:{cai.pk}"]


def test_an_extra_move_by_email_comes_once_in_the_answer_and_its_reply_plays(players):
    ann = players[0]
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED, told=True)
    turn = send(latest("your_turn", ann))
    flipped = send_answer(reply(turn, "a1"), ann)
    assert "Reply with your destination: a2, b1." in flipped.body_text
    moved = reply(flipped, "a2")
    assert moved.outcome == "moved"
    game.refresh_from_db()
    data = game.game_kind.position_data(game_position(game=game))
    assert (game.seat_to_move, data["phase"], data["stack"]) == (1, "route", "a2")
    answer = send_answer(moved, ann)
    flips = data["flips"]
    assert moved.notation == f"a2 {flips}"
    assert "Your stack on a1 moved to a2." in answer.body_text
    assert "The landing earns an extra move, the stack on a2 moves again." in answer.body_text
    assert (
        f"You flipped {' '.join(flips)}: {points(flips)}. Reply with your destination: "
        f"{', '.join(data['destinations'])}." in answer.body_text
    )
    assert_fresh_token(answer, game, ann)  # the destination still to choose
    assert turn_emails(ann) == [turn.dedupe_key]  # the extra move sent no "your turn"
    assert reply(answer, data["destinations"][0]).outcome == "moved"
    game.refresh_from_db()
    assert game.seat_to_move == 2
    assert turn_emails(ann) == [turn.dedupe_key]


def test_choices_on_the_page_send_no_email_until_the_turn_passes(players):
    ann, ben = players[:2]
    push = PushDevice.objects.create(user=ann, endpoint="https://push.example/a", name="Phone")
    profile = profile_get(user=ann)
    profile.has_push_devices = True
    profile.save(update_fields=["has_push_devices"])
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED, told=True)
    assert OutboxPush.objects.filter(device=push).count() == 1  # her turn, pushed too
    emails = OutboxEmail.objects.count()
    game = play(game, "a1")  # the square: she sees the flips on the page
    assert (game.seat_to_move, OutboxEmail.objects.count()) == (1, emails)
    game = play(game, "a2")  # an extra move: its flips are on the page at once
    data = game.game_kind.position_data(game_position(game=game))
    assert (game.seat_to_move, data["stack"]) == (1, "a2")
    assert OutboxEmail.objects.count() == emails
    assert OutboxPush.objects.filter(device=push).count() == 1
    last = OutboxEmail.objects.latest("pk").pk
    game = play(game, data["destinations"][0])
    assert game.seat_to_move == 2  # the turn passed: ben hears of it, once
    [row] = OutboxEmail.objects.filter(pk__gt=last)
    assert (row.event, row.recipient) == ("your_turn", ben)
    assert turn_emails(ann) == [f"your_turn:{game.pk}:0:{ann.pk}"]


def test_a_reply_to_the_turn_email_after_a_square_on_the_page_gets_a_fresh_address(players):
    ann = players[0]
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED, told=True)
    turn = send(latest("your_turn", ann))
    game = play(game, "a1")  # on the page: no email
    stale = reply(turn, "a2")
    assert (stale.outcome, stale.reason) == ("refused", "stale_ply")
    answer = send_answer(stale, ann)
    assert "reply with your destination: a2, b1" in answer.body_text
    assert_fresh_token(answer, game, ann)
    assert reply(answer, "a2").outcome == "moved"
    assert turn_emails(ann) == [turn.dedupe_key]


def test_each_player_gets_one_turn_email_per_turn_whatever_its_steps(players):
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED, told=True)
    started: dict[int, list[str]] = {user.pk: [] for user in players[:3]}
    steps = []
    for _ in range(9):  # three rounds, each choice on the page
        mover = game.user_to_move()
        started[mover.pk].append(f"your_turn:{game.pk}:{game.ply}:{mover.pk}")
        ply_before = game.ply
        game = play_turn(game)
        steps.append(game.ply - ply_before)
    assert min(steps) >= 2 and steps[0] > 2  # a square and a destination; ann's extra move
    mover = game.user_to_move()
    started[mover.pk].append(f"your_turn:{game.pk}:{game.ply}:{mover.pk}")  # the tenth
    for user in players[:3]:
        assert turn_emails(user) == started[user.pk]
    keys = OutboxEmail.objects.values_list("dedupe_key", flat=True)
    assert len(keys) == len(set(keys)) == 10


def test_a_refused_choice_says_why_in_the_kinds_words(players):
    game = knot_game(players[:3], told=True)
    flipped = send_answer(reply(send(latest("your_turn", players[0])), "a1"), players[0])
    game.refresh_from_db()
    data = game.game_kind.position_data(game_position(game=game))
    wrong = next(name for name in ("i9", "e5", "a9") if name not in data["destinations"])
    refused = reply(flipped, wrong)
    assert (refused.outcome, refused.reason) == ("refused", "illegal_move")
    answer = send_answer(refused, players[0])
    assert f"it can reach {', '.join(data['destinations'])}, not {wrong}" in answer.body_text
    assert game.game_kind.notation_help in answer.body_text
    assert "f5 NE" not in answer.body_text
    assert_fresh_token(answer, game, players[0])


def test_the_result_lists_the_whole_finishing_order_with_colours_and_rating_changes(players):
    ann, ben, cai, dee = players
    game = knot_game(players)
    game = play_turn(game)
    for leaver in (cai, ann, dee):  # ben is left: 1st, then the last to leave ranks highest
        game_services.game_resign(game_id=game.pk, user=leaver)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    changes = rating_changes_for_game(game_id=game.pk)
    assert set(changes) == {user.pk for user in players}
    for user in players:
        row = send(latest("game_finished", user))
        order = " ".join(
            f"{place}. {who.username} ({colour}, rating {changes[who.pk].before} → "
            f"{changes[who.pk].after}, {changes[who.pk].signed_delta}){end}"
            for place, who, colour, end in (
                (1, ben, "Blue", ";"),
                (2, dee, "Yellow", ";"),
                (3, ann, "Red", ";"),
                (4, cai, "Green", "."),
            )
        )
        assert f"Finishing order: {order}" in row.body_text
        assert "Closed knots" not in row.body_text and "No closed knot" not in row.body_text
    assert "you won" in latest("game_finished", ben).body_text


def test_the_result_says_each_seats_coins_and_distance_at_the_end_and_no_celtic_words(
    players,
):
    ann, ben, cai = players[:3]
    game = play_turn(knot_game(players[:3]))  # Red's first turn moves one of its stacks
    for leaver in (cai, ben):  # Red wins
        game_services.game_resign(game_id=game.pk, user=leaver)
    core = game_position(game=game).core
    seats = [
        f"Red: {core.coins[0]} coins, {core.distance(0)} to go",
        "Blue: left the game",
        "Green: left the game",
    ]
    heading = "Coins left on the board at the end, and their distance to the exit:"
    for user in (ann, ben, cai):
        row = send(latest("game_finished", user))
        assert "\n".join([heading, *(f"- {seat}" for seat in seats)]) + "\n" in row.body_text
        assert f"<p>{heading}</p>" in row.body_html
        assert "".join(f"<li>{seat}</li>" for seat in seats) in row.body_html
        for celtic in ("knot of", "Closed knots", "No closed knot", "Knot scores", "Orange"):
            assert celtic not in row.body_text and celtic not in row.body_html


def test_a_result_before_any_move_says_nothing_of_the_coins(players):
    game = knot_game(players[:2])
    game_services.game_resign(game_id=game.pk, user=players[0])
    row = send(latest("game_finished", players[1]))
    assert "you won" in row.body_text and "Coins left" not in row.body_text


def test_the_seed_never_appears_in_an_email_while_the_game_runs(players):
    game = game_services.game_start(players=players[:3], kind="knot")
    seed = game.chance_seed
    assert len(seed) == 64
    for _ in range(3):  # three turns by email: the square, then the destination
        mover = game.user_to_move()
        reply(send(latest("your_turn", mover)), game_position(game=game).legal_choices()[0])
        game.refresh_from_db()
        if game.user_to_move() == mover:  # the flips reached somewhere
            answer = send(latest("email_move_reply", mover))
            reply(answer, game_position(game=game).legal_choices()[0])
            game.refresh_from_db()
        game = play_turn(game) if game.user_to_move() == mover else game  # extra moves
    for row in OutboxEmail.objects.all():
        row = send(row) if row.status == "pending" else row
        for text in (row.subject, row.body_text, row.body_html, row.board_svg, row.reply_to):
            assert seed not in text.lower()
    assert OutboxEmail.objects.filter(event="email_move_reply").exists()
    for message in mail.outbox:  # every part decoded, the inline PNG's bytes too
        parsed = message.message()
        assert seed not in str(parsed["Subject"]).lower()
        for part in parsed.walk():
            if not part.is_multipart():
                assert seed.encode() not in part.get_payload(decode=True).lower()
    assert game.is_active


class SeatNames:
    """What ``turns_since`` reads of a game: its seat names."""

    def seat_name(self, seat: int) -> str:
        return ("Red", "Blue", "Green")[seat - 1]


def test_turns_since_the_players_last_are_record_lines_and_departures_are_sentences():
    steps = [
        Step(1, StepKind.MOVE, "a1 H"),
        Step(1, StepKind.MOVE, "a2 TH"),
        Step(1, StepKind.MOVE, "c3"),
        Step(2, StepKind.MOVE, "b1 HH"),
        Step(2, StepKind.PASS),
        Step(3, StepKind.MOVE, "c1 T"),
        Step(3, StepKind.LEAVE, "resign"),
        Step(1, StepKind.MOVE, "c3 HT"),
    ]
    game = SeatNames()
    assert turns_since(game, steps[:7], seat=1, to_act=1) == [
        "2 b1 HH pass (Blue)",
        "Green played c1 T",
        "Green resigned",
    ]
    # seat 1's turn going on is not "since": the turns before it are
    assert turns_since(game, steps, seat=1, to_act=1) == turns_since(
        game, steps[:7], seat=1, to_act=1
    )
    assert turns_since(game, steps, seat=2, to_act=1) == [
        "Green played c1 T",
        "Green resigned",
        "Red played c3 HT",
    ]
    assert turns_since(game, [], seat=1, to_act=1) == []


def test_a_reminder_says_what_a_reply_names_now(players):
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED)
    now = game.deadline - timedelta(hours=20)
    assert on_deadline_near(game, hours=24, now=now)
    row = send(latest("deadline_reminder", players[0]))
    first = game_position(game=game).legal_choices()[0]
    assert f"reply with the square you move from, e.g. {first}" in row.body_text
    assert "f5 NE" not in row.body_text and not row.board_svg
    game = play(game, first)
    assert game.seat_to_move == 1  # with this seed, a1's flips reach somewhere
    assert not on_deadline_near(game, hours=24, now=now)  # the same turn: sent already
    assert on_deadline_near(game, hours=2, now=now)
    row = send(latest("deadline_reminder", players[0]))
    data = game.game_kind.position_data(game_position(game=game))
    assert f"reply with your destination: {', '.join(data['destinations'])}" in row.body_text


def test_the_scan_reminds_once_a_turn_whatever_its_steps(players):
    ann, ben = players[:2]
    game = knot_game(players[:3], seed=EXTRA_MOVE_SEED)
    hours_20_left = game.deadline - timedelta(hours=20)
    assert deadline_reminders_queue(now=hours_20_left) == [game.pk]
    game = play(game, "a1")
    assert deadline_reminders_queue(now=hours_20_left) == []  # the square: no new turn
    game = play(game, "a2")  # an extra move: no new turn either
    assert deadline_reminders_queue(now=hours_20_left + timedelta(hours=1)) == []
    game = play_turn(game)  # on to ben, whose turn is reminded in its time
    assert deadline_reminders_queue(now=game.deadline - timedelta(hours=20)) == [game.pk]
    reminded = OutboxEmail.objects.filter(event="deadline_reminder").order_by("pk")
    assert list(reminded.values_list("recipient", flat=True)) == [ann.pk, ben.pk]
