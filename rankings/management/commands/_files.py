"""Reading a results file for the ratings_* commands, with errors as CommandError."""

from __future__ import annotations

from django.core.management.base import CommandError

from rankings.csvimport import ImportedResult, ResultFileError, read_results_file


def results_from_file(path: str) -> list[ImportedResult]:
    try:
        return read_results_file(path)
    except ResultFileError as error:
        count = len(error.errors)
        raise CommandError(
            f"{path}: {count} error{'s' if count != 1 else ''}, nothing imported:\n{error}"
        ) from error
    except UnicodeDecodeError as error:
        raise CommandError(f"{path}: not UTF-8 text ({error})") from error
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror or error}") from error
