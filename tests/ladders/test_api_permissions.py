"""Who may call each ladders endpoint (the permission matrix, as a table).

Each cell runs on a fresh ladder (organised by ``organiser``): ``top`` in place 1 and
``player`` in place 2. ``staff`` is staff without ladder permissions; ``manager`` is staff
holding ``ladders.manage_ladder_players``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from ladders import services
from tests.accounts.factories import make_superuser, make_user
from tests.games.conftest import token_client
from tests.ladders.conftest import grant

pytestmark = pytest.mark.django_db

A = "/api/v1/ladders"
ROLES = ("anon", "player", "outsider", "organiser", "staff", "manager", "superuser")


def _staff(name: str) -> User:
    user = make_user(name)
    user.is_staff = True
    user.save()
    return User.objects.get(pk=user.pk)


@pytest.fixture
def world(organiser):
    users = {
        "player": make_user("player"),
        "outsider": make_user("outsider"),
        "organiser": organiser,
        "staff": _staff("staff"),
        "manager": grant(_staff("manager"), "manage_ladder_players"),
        "superuser": make_superuser("root"),
    }
    ladder = services.ladder_create(organiser=organiser, name="Club Ladder")
    services.ladder_join(ladder_id=ladder.pk, user=make_user("top"))
    services.ladder_join(ladder_id=ladder.pk, user=users["player"])
    clients = {role: token_client(user) for role, user in users.items()}
    clients["anon"] = APIClient()
    return {"clients": clients, "ladder": ladder}


TABLE = {
    # endpoint: (method, path after /api/v1/ladders/<id>, body), answers in ROLES order
    "list": (("get", "/", None), (200, 200, 200, 200, 200, 200, 200)),
    "create": (("post", "/", {"name": "Another"}), (401, 403, 403, 201, 403, 403, 201)),
    "detail": (("get", "{id}/", None), (200, 200, 200, 200, 200, 200, 200)),
    "history": (("get", "{id}/history/", None), (200, 200, 200, 200, 200, 200, 200)),
    "join": (("post", "{id}/join/", None), (401, 409, 201, 201, 201, 201, 201)),
    "leave": (("post", "{id}/leave/", None), (401, 204, 409, 409, 409, 409, 409)),
    "challenge": (
        ("post", "{id}/challenges/", {"opponent": "top"}),
        (401, 201, 409, 409, 409, 409, 409),
    ),
    "remove": (
        ("post", "{id}/remove/", {"player": "player", "reason": "left the club"}),
        (401, 403, 403, 200, 403, 200, 200),
    ),
}
CELLS = [(endpoint, role) for endpoint in TABLE for role in ROLES]


@pytest.mark.parametrize(("endpoint", "role"), CELLS, ids=[f"{e}-{r}" for e, r in CELLS])
def test_who_may_call_each_endpoint(world, endpoint, role):
    (method, path, body), expected = TABLE[endpoint]
    url = A + ("/" + path.format(id=world["ladder"].pk)).replace("//", "/")
    answer = getattr(world["clients"][role], method)(url, body, format="json")
    assert answer.status_code == expected[ROLES.index(role)], answer.content
