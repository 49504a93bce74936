"""What every format parser shares: the parse context, the result, and reading posts one
at a time so that a broken post is reported (file and post) and the others still count."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import TypeVar

from nightfall.forum.errors import ForumInputError
from nightfall.forum.model import InputIssue, Post

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ParseContext:
    """Where the posts come from and how to read their times."""

    file: str
    tz: tzinfo
    """The forum's time zone: for times the page shows without one."""


@dataclass(slots=True)
class Parsed:
    """The posts read from one file and the problems met."""

    posts: list[Post] = field(default_factory=list)
    issues: list[InputIssue] = field(default_factory=list)

    def issue(self, ctx: ParseContext, post: str | None, message: str) -> None:
        self.issues.append(InputIssue(ctx.file, post, message))


def read_posts(
    ctx: ParseContext,
    items: Iterable[T],
    ident: Callable[[T, int], str],
    build: Callable[[T, str, int], Post | None],
    parsed: Parsed | None = None,
) -> Parsed:
    """Build a post from each item; an item that fails becomes an issue naming its post.

    ``ident(item, index)`` names the post for messages; ``build(item, id, index)`` makes it
    (``None``: not a post to count, e.g. a deleted one, silently left out).
    """
    result = parsed if parsed is not None else Parsed()
    seen: set[str] = set()
    for index, item in enumerate(items):
        post_id = f"#{index + 1}"
        try:
            post_id = ident(item, index)
            if post_id in seen:
                continue
            seen.add(post_id)
            post = build(item, post_id, len(result.posts))
        except ForumInputError as error:
            result.issue(ctx, post_id, str(error))
            continue
        except (ValueError, TypeError, KeyError, IndexError, AttributeError,
                RecursionError) as error:  # markup the parser did not foresee
            result.issue(ctx, post_id, f"unreadable post ({type(error).__name__}: {error})")
            continue
        if post is not None:
            result.posts.append(post)
    return result


def squash(text: str) -> str:
    """``text`` with whitespace runs (and no-break spaces) made single spaces."""
    return " ".join(text.replace("\xa0", " ").split())
