"""The project's URLs plus one API endpoint that has no row in the permission matrix."""

from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from celticsite.urls import urlpatterns as project_urlpatterns


class UnlistedApi(APIView):
    def post(self, request, thing_id):  # type: ignore[no-untyped-def]
        return Response({})


urlpatterns = [
    path("api/v1/unlisted/<int:thing_id>/", UnlistedApi.as_view()),
    *project_urlpatterns,
]
