"""The games services, called directly: challenges, moves, passes, the end, resignation."""

from __future__ import annotations

import random

import pytest

from games import errors, selectors, services
from games.clock import ClockKind, TimeControl
from games.kinds.celtic import GameRecord
from games.models import Challenge, Game, Move
from tests.accounts.factories import make_moderator
from tests.games.conftest import PASSES_GAME_SEED, SHORT_GAME_SEED
from tests.seats import COLOUR, side, to_move


def play_seeded(game: Game, seed: int) -> Game:
    """Play ``game`` to the end through ``move_submit`` with moves chosen as the API helper does."""
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if not game.is_active:
            return game
        state = selectors.game_position(game=game)
        move = rng.choice(sorted(str(m) for m in state.legal_choices()))
        services.move_submit(
            game_id=game.pk, user=game.user_to_move(), expected_ply=game.ply, notation=move
        )


# --- challenges ------------------------------------------------------------------------------


def test_challenge_create_stores_everything_asked(alice, bob):
    tc = TimeControl(kind=ClockKind.FISCHER, bank_days=7, increment_days=1, max_days=9)
    challenge = services.challenge_create(
        challenger=alice,
        opponent=bob,
        seat_choice=2,
        rated=False,
        public=False,
        window_forfeit=True,
        time_control=tc,
        message="Fancy a game?",
    )
    challenge.refresh_from_db()
    assert (challenge.challenger, challenge.opponent, challenge.seat_choice) == (alice, bob, 2)
    assert (challenge.rated, challenge.public, challenge.window_forfeit) == (False, False, True)
    assert challenge.time_control == tc
    assert challenge.status == Challenge.Status.OPEN
    assert challenge.message == "Fancy a game?"


def test_challenging_yourself_is_refused(alice):
    with pytest.raises(errors.DomainError) as caught:
        services.challenge_create(challenger=alice, opponent=alice)
    assert caught.value.code == "self_challenge"


def test_a_suspended_player_cannot_be_challenged(alice, bob):
    bob.is_active = False
    bob.save()
    with pytest.raises(errors.DomainError) as caught:
        services.challenge_create(challenger=alice, opponent=bob)
    assert caught.value.code == "opponent_inactive"


def test_a_seat_the_game_has_not_is_refused(alice):
    with pytest.raises(errors.DomainError, match="Seat 3 does not exist in a game for 2"):
        services.challenge_create(challenger=alice, seat_choice=3)


@pytest.mark.parametrize(("seat", "orange_name"), [(1, "alice"), (2, "bob")])
def test_accepting_starts_a_game_with_the_chosen_colours(alice, bob, seat, orange_name):
    challenge = services.challenge_create(challenger=alice, seat_choice=seat, rated=False)
    game = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert game.user_at(1).username == orange_name
    assert {game.user_at(1), game.user_at(2)} == {alice, bob}
    assert (game.status, game.ply, to_move(game), game.rated) == ("active", 0, "orange", False)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.opponent == bob
    assert challenge.decided_at is not None
    assert challenge.game == game


def test_random_colour_uses_the_rng_given(alice, bob, carol):
    picks = set()
    for seed in range(8):
        challenge = services.challenge_create(challenger=alice)
        game = services.challenge_accept(
            challenge_id=challenge.pk, user=bob, rng=random.Random(seed)
        )
        expected = random.Random(seed).choice(["orange", "blue"])
        assert COLOUR[game.seat_of(alice)] == expected
        picks.add(expected)
    assert picks == {"orange", "blue"}


def test_accept_refusals(alice, bob, carol):
    direct = services.challenge_create(challenger=alice, opponent=bob)
    with pytest.raises(errors.NotPermitted) as caught:
        services.challenge_accept(challenge_id=direct.pk, user=alice)
    assert caught.value.code == "own_challenge"
    with pytest.raises(errors.NotPermitted) as caught:
        services.challenge_accept(challenge_id=direct.pk, user=carol)
    assert caught.value.code == "not_addressed_to_you"
    with pytest.raises(errors.ChallengeNotFound):
        services.challenge_accept(challenge_id=direct.pk + 1000, user=bob)
    services.challenge_accept(challenge_id=direct.pk, user=bob)
    with pytest.raises(errors.ChallengeNotOpen, match="is accepted, not open"):
        services.challenge_accept(challenge_id=direct.pk, user=bob)
    assert Game.objects.count() == 1


def test_decline_and_cancel(alice, bob, carol):
    direct = services.challenge_create(challenger=alice, opponent=bob)
    with pytest.raises(errors.NotPermitted):
        services.challenge_decline(challenge_id=direct.pk, user=carol)
    with pytest.raises(errors.NotPermitted):
        services.challenge_cancel(challenge_id=direct.pk, user=bob)
    assert services.challenge_decline(challenge_id=direct.pk, user=bob).status == "declined"
    with pytest.raises(errors.ChallengeNotOpen):
        services.challenge_cancel(challenge_id=direct.pk, user=alice)

    seek = services.challenge_create(challenger=alice)
    with pytest.raises(errors.NotPermitted):
        services.challenge_decline(challenge_id=seek.pk, user=bob)  # nobody declines a seek
    cancelled = services.challenge_cancel(challenge_id=seek.pk, user=alice)
    assert cancelled.status == "cancelled"
    assert cancelled.decided_at is not None


def test_a_game_needs_two_players(alice):
    with pytest.raises(errors.DomainError) as caught:
        services.game_start(players=[alice, alice])
    assert caught.value.code == "same_player"


# --- moves -----------------------------------------------------------------------------------


def test_a_move_is_recorded_and_the_turn_passes(game, alice, bob):
    outcome = services.move_submit(
        game_id=game.pk, user=alice, expected_ply=0, notation="  d5 wse "
    )
    assert [(m.ply, side(m), m.kind, m.notation) for m in outcome.turns] == [
        (0, "orange", "move", "d5 ESW")
    ]
    assert (outcome.game.ply, to_move(outcome.game)) == (1, "blue")
    assert Game.objects.get(pk=game.pk).ply == 1


def test_move_refusals_change_nothing(game, alice, bob, carol):
    cases = [
        (dict(user=carol, expected_ply=0, notation="d5 ESW"), errors.NotAPlayer, {}),
        (dict(user=alice, expected_ply=3, notation="d5 ESW"), errors.StalePly, {"current_ply": 0}),
        (dict(user=bob, expected_ply=0, notation="d5 ESW"), errors.NotYourTurn, {}),
        (
            dict(user=alice, expected_ply=0, notation="d5 QQ"),
            errors.InvalidNotation,
            {"expected": errors.HOW_TO_WRITE_A_MOVE},
        ),
        (
            dict(user=alice, expected_ply=0, notation="a1 N"),
            errors.IllegalMove,
            {"rule": "not-demand"},
        ),
        (
            dict(user=alice, expected_ply=0, notation="f5 N"),
            errors.IllegalMove,
            {"rule": "mismatch"},
        ),
    ]
    for kwargs, error, extra in cases:
        with pytest.raises(error) as caught:
            services.move_submit(game_id=game.pk, **kwargs)
        assert caught.value.extra == extra
    with pytest.raises(errors.GameNotFound):
        services.move_submit(game_id=game.pk + 1000, user=alice, expected_ply=0, notation="d5 ESW")
    game.refresh_from_db()
    assert (game.ply, to_move(game)) == (0, "orange")
    assert not Move.objects.exists()


def test_window_rule_rejects_in_standard_and_forfeits_in_the_variant(alice, bob):
    for window_forfeit in (False, True):
        game = services.game_start(players=[alice, bob], window_forfeit=window_forfeit)
        services.move_submit(game_id=game.pk, user=alice, expected_ply=0, notation="d5 ESW")
        services.move_submit(game_id=game.pk, user=bob, expected_ply=1, notation="c5 ESW")
        if not window_forfeit:
            with pytest.raises(errors.IllegalMove) as caught:
                services.move_submit(game_id=game.pk, user=alice, expected_ply=2, notation="b5 EW")
            assert caught.value.extra == {"rule": "window"}
            assert "6 columns" in caught.value.detail
            continue
        outcome = services.move_submit(
            game_id=game.pk, user=alice, expected_ply=2, notation="b5 EW"
        )
        assert [(m.kind, m.notation, side(m)) for m in outcome.turns] == [
            ("forfeit", "b5 EW", "orange")
        ]
        assert (outcome.game.ply, to_move(outcome.game)) == (3, "blue")
        assert len(selectors.game_position(game=outcome.game).engine.tiles) == 3  # b5 not placed


def test_automatic_passes_are_stored_as_rows(alice, bob):
    game = play_seeded(services.game_start(players=[alice, bob], rated=False), PASSES_GAME_SEED)
    passes = [(m.ply, side(m), m.notation) for m in game.moves.filter(kind="pass")]
    assert passes == [
        (16, "orange", ""),
        (18, "orange", ""),
        (20, "orange", ""),
        (22, "orange", ""),
    ]
    assert game.ply == game.moves.count() == 24


def test_the_engine_ends_the_game_and_the_result_is_recorded(alice, bob):
    game = play_seeded(services.game_start(players=[alice, bob]), SHORT_GAME_SEED)
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "normal")
    assert (game.ply, to_move(game), game.deadline) == (6, "", None)
    assert game.finished_at is not None
    state = GameRecord.from_dict(selectors.game_record_data(game=game)).replay()
    assert state.is_over() and state.result().text == "0-1"
    from rankings.models import RatedResult

    assert RatedResult.objects.filter(game_id=game.pk).count() == 1  # rated: ratings moved
    with pytest.raises(errors.GameNotActive):
        services.move_submit(game_id=game.pk, user=alice, expected_ply=6, notation="d5 ESW")


def test_resignation(game, alice, bob, carol):
    with pytest.raises(errors.NotAPlayer):
        services.game_resign(game_id=game.pk, user=carol)
    resigned = services.game_resign(game_id=game.pk, user=alice)
    assert (resigned.status, resigned.result, resigned.termination) == (
        "finished",
        "0-1",
        "resignation",
    )
    assert resigned.finished_at is not None and to_move(resigned) == ""
    with pytest.raises(errors.GameNotActive):
        services.game_resign(game_id=game.pk, user=bob)
    record = GameRecord.from_dict(selectors.game_record_data(game=Game.objects.get(pk=game.pk)))
    assert record.headers["Termination"] == "resignation"
    assert record.replay().ply == 0


def test_blue_resigning_gives_orange_the_win(game, bob):
    assert services.game_resign(game_id=game.pk, user=bob).result == "1-0"


def test_moderators_annul_and_adjudicate_with_a_reason(game):
    moderator = make_moderator()
    with pytest.raises(errors.DomainError) as caught:
        services.game_annul(game_id=game.pk, actor=moderator, reason="  ")
    assert caught.value.code == "reason_required"
    with pytest.raises(errors.DomainError) as caught:
        services.game_adjudicate(game_id=game.pk, actor=moderator, result="2-0", reason="x")
    assert caught.value.code == "invalid_result"
    decided = services.game_adjudicate(
        game_id=game.pk, actor=moderator, result="1/2-1/2", reason="Both players asked for a draw."
    )
    assert (decided.status, decided.result, decided.termination) == (
        "finished",
        "1/2-1/2",
        "adjudication",
    )
    annulled = services.game_annul(game_id=game.pk, actor=moderator, reason="Cheating.")
    assert (annulled.status, annulled.result, annulled.termination) == ("annulled", "", "annulled")
    with pytest.raises(errors.GameNotActive) as caught:
        services.game_annul(game_id=game.pk, actor=moderator, reason="Again.")
    assert caught.value.code == "already_annulled"


def test_every_column_a_move_changes_is_saved(alice, bob):
    """A move saves only the columns a turn changes (``_TURN_FIELDS``): the game it answers
    must equal the stored row after every move, passes and the end included."""
    fischer = TimeControl(kind=ClockKind.FISCHER, bank_days=7, increment_days=1, max_days=9)
    game = services.game_start(players=[alice, bob], time_control=fischer)
    rng = random.Random(PASSES_GAME_SEED)
    columns = [field.attname for field in Game._meta.concrete_fields]
    passes = 0
    while game.is_active:
        state = selectors.game_position(game=game)
        move = rng.choice(sorted(str(m) for m in state.legal_choices()))
        outcome = services.move_submit(
            game_id=game.pk, user=game.user_to_move(), expected_ply=game.ply, notation=move
        )
        game = outcome.game
        stored = Game.objects.get(pk=game.pk)
        assert [getattr(game, c) for c in columns] == [getattr(stored, c) for c in columns]
        passes += sum(turn.kind == Move.Kind.PASS for turn in outcome.turns)
    assert passes > 0 and game.status == Game.Status.FINISHED
