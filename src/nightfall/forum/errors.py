"""Exceptions of the forum import. Parsers raise them; :func:`nightfall.forum.read_page`
turns each into an :class:`~nightfall.forum.model.InputIssue` and never lets one escape."""

from __future__ import annotations


class ForumInputError(ValueError):
    """The input cannot be used as it is (a whole file or one post of it)."""


class PostError(ForumInputError):
    """One post cannot be used (no author, no readable date, no content ...)."""


class DateError(PostError):
    """A date or time in the page could not be read."""
