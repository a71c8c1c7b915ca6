"""The objects every cell of the permission matrix runs against: one user per role, a private
game between the player and the opponent, a message, a challenge, tokens, ratings, mail."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_revoke, user_suspend
from games import selectors, services
from games.models import Challenge, Game, GameMessage, MessageReport
from moderation.models import AuditEntry
from moderation.services import moderators_group_sync
from notifications.models import InboundEmail, OutboxEmail
from rankings.models import Player, PlayerRating, RatedResult
from rankings.services import player_for_user
from tests.accounts.factories import make_superuser, make_user
from tests.security.matrix import (
    MODERATOR,
    OPPONENT,
    OUTSIDER,
    PLAYER,
    REVOKED_TOKEN,
    STAFF,
    SUPERUSER,
    SUSPENDED,
)
from tournaments import services as tournament_services
from tournaments.models import Tournament


@dataclass
class World:
    users: dict[str, User]  # by role; no anonymous
    keys: dict[str, str]  # each role's API key (the suspended user's and a revoked one fail)
    game: Game  # private, active: player Orange to move v opponent Blue
    first_move: str  # a legal move for the player at ply 0
    finished: Game  # public and rated: the opponent resigned to the player
    message: GameMessage  # the player's, in ``game``
    report: MessageReport  # the opponent's report of ``message``
    challenge: Challenge  # open, from the opponent to the player
    spare_token: ApiToken  # the player's second token
    testers: Group  # a group without permissions
    targets: dict[str, Any] = field(default_factory=dict)  # objects the admin actions select

    @property
    def ids(self) -> dict[str, Any]:
        """The values of the URL converters: ``{game_id}`` is the private game, etc."""
        return {
            "game_id": self.game.pk,
            "ply": 0,
            "message_id": self.message.pk,
            "challenge_id": self.challenge.pk,
            "token_id": self.spare_token.pk,
            "player_id": player_for_user(user=self.users[PLAYER]).pk,
            "kind_id": "celtic",
        }

    def api_client(self, role: str) -> APIClient:
        client = APIClient()
        if role in self.keys:
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.keys[role]}")
        return client


def _staff(username: str, *groups: Group) -> User:
    user = make_user(username)
    user.is_staff = True
    user.save()
    user.groups.add(*groups)
    return User.objects.get(pk=user.pk)


def build_world() -> World:
    moderators = moderators_group_sync()
    root = make_superuser("root")
    users = {
        PLAYER: make_user("alice"),
        OPPONENT: make_user("bob"),
        OUTSIDER: make_user("carol"),
        SUSPENDED: make_user("dave"),
        REVOKED_TOKEN: make_user("erin"),
        STAFF: _staff("frank"),
        MODERATOR: _staff("mod", moderators),
        SUPERUSER: root,
    }
    keys = {role: api_token_create(user=user, name="matrix")[1] for role, user in users.items()}
    user_suspend(user=users[SUSPENDED], actor=root, reason="Matrix")
    revoked = ApiToken.objects.get(user=users[REVOKED_TOKEN])
    api_token_revoke(user=users[REVOKED_TOKEN], token_id=revoked.pk)

    player, opponent = users[PLAYER], users[OPPONENT]
    finished = services.game_start(players=[player, opponent])
    opening = str(sorted(selectors.game_position(game=finished).legal_choices(), key=str)[0])
    services.move_submit(game_id=finished.pk, user=player, expected_ply=0, notation=opening)
    services.game_resign(game_id=finished.pk, user=opponent)
    game = services.game_start(players=[player, opponent], public=False)
    message = services.message_post(game_id=game.pk, author=player, body="Hello")
    report = services.message_report(
        game_id=game.pk, message_id=message.pk, reporter=opponent, reason="Rude"
    )
    testers = Group.objects.create(name="Testers")
    world = World(
        users=users,
        keys=keys,
        game=game,
        first_move=opening,
        finished=finished,
        message=message,
        report=report,
        challenge=services.challenge_create(challenger=opponent, opponent=player),
        spare_token=api_token_create(user=player, name="spare")[0],
        testers=testers,
    )
    world.targets = _admin_targets(world, root=root, moderators=moderators)
    # Built once per module, outside each test's fixtures: the rounds are paired here.
    with tournament_services.rounds_paired_in_process():
        world.targets.update(_tournament_targets(world))
    return world


def _admin_targets(world: World, *, root: User, moderators: Group) -> dict[str, Any]:
    """Objects for the admin actions, apart from the role users (nobody acts on themselves)."""
    victim = make_user("victim")
    victim.groups.add(world.testers)
    banned = make_user("banned")
    user_suspend(user=banned, actor=root, reason="Matrix")
    return {
        "victim": victim,
        "banned": banned,
        "helper": _staff("helper"),
        "leaver": make_user("leaver"),  # nothing to their name: the one user that can go
        "other_root": make_superuser("root2"),
        "victim_token": api_token_create(user=victim, name="cli")[0],
        "audit_entry": AuditEntry.objects.first(),
        "ghost_player": Player.objects.create(name="Ghost"),
        "rated_result": RatedResult.objects.get(game=world.finished),
        "player_rating": PlayerRating.objects.first(),
        "outbox_email": OutboxEmail.objects.first(),
        "inbound_email": InboundEmail.objects.create(
            message_id="<matrix@example.org>",
            from_address="alice@example.org",
            outcome=InboundEmail.Outcome.MALFORMED,
        ),
        "move": world.finished.moves.first(),
    }


def _tournament_targets(world: World) -> dict[str, Any]:
    """Events of an organiser who holds no role, one per state the tournaments rows need;
    the player is registered in the open one (the others play with players of their own)."""
    organiser = make_user("orga")
    organiser.user_permissions.add(
        Permission.objects.get(
            codename="organise_tournament", content_type__app_label="tournaments"
        )
    )
    organiser = User.objects.get(pk=organiser.pk)
    field = [make_user(f"entrant{i}") for i in range(1, 6)]
    make_user("guest")  # someone to invite

    def event(name: str, entrants: list[User], **settings: Any) -> Tournament:
        tournament = tournament_services.tournament_create(
            organiser=organiser, name=name, **settings
        )
        tournament_services.tournament_registration_open(
            tournament_id=tournament.pk, actor=organiser
        )
        for user in entrants:
            tournament_services.tournament_register(tournament_id=tournament.pk, user=user)
        return Tournament.objects.get(pk=tournament.pk)

    def running(name: str, entrants: list[User], **settings: Any) -> Tournament:
        tournament = event(name, entrants, **settings)
        return tournament_services.tournament_start(tournament_id=tournament.pk, actor=organiser)

    dates = running("Matrix dates", field[:4], round_start_mode="on_dates", round_interval_days=7)
    for link in dates.games.order_by("board"):  # round 1 decided; round 2 waits for its date
        tournament_services.tournament_game_adjudicate(
            tournament_game_id=link.pk, actor=organiser, result="1-0", reason="Matrix"
        )
    draft = tournament_services.tournament_create(organiser=organiser, name="Matrix draft")
    return {
        "t_draft": draft,
        "t_open": event("Matrix open", [world.users[PLAYER], *field[:3]]),
        "t_approval": event("Matrix approval", field[:1], registration_mode="approval"),
        "t_running": running("Matrix running", field),  # five players: a bye each round
        "t_dates": dates,
        "t_knockout": running("Matrix knockout", field[:4], format="knockout"),
        "t_swiss": running(  # round 1 paired: byes and pairs concern round 2 on
            "Matrix swiss",
            [world.users[PLAYER], *field[:3]],
            format="swiss",
            rounds_planned=3,
            half_point_byes_max=1,
        ),
    }
