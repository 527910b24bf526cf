"""``GET /api/articles`` (filtered, paged, or searched with ``q``) and
``GET /api/articles/{id}``: the stored articles."""

from __future__ import annotations

from functools import partial

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.outputs.serialize import JsonValue, article_to_dict, to_json
from feedsift.records import PageKind
from feedsift.server.errors import ApiError
from feedsift.server.params import check_known, flag, moment, path_id, text, whole
from feedsift.server.services import Services, services_of
from feedsift.storage import SearchHit, SearchQuery, Store, StoredArticle
from feedsift.storage.api_queries import (
    DEFAULT_PAGE,
    ArticleFilter,
    article_by_id,
    article_summaries,
    count_articles,
)
from feedsift.storage.search import site_key

__all__ = [
    "ARTICLES_PARAMETERS",
    "KINDS",
    "MAX_PAGE",
    "article_filter",
    "find_articles",
    "get_article",
    "list_articles",
    "read_article",
]

#: Most articles in one answer: a page of summaries stays well under a megabyte.
MAX_PAGE = 100
#: Largest offset: deeper pages are for ``feedsift export``, not for paging an API.
MAX_OFFSET = 1_000_000
#: The query parameters of the list.
ARTICLES_PARAMETERS = ("site", "since", "kind", "method", "q", "limit", "offset", "duplicates")
#: The page kinds a ``kind`` filter may name.
KINDS = frozenset(kind.value for kind in PageKind)


async def list_articles(request: Request) -> Response:
    """List the stored articles, newest first, or search them.

    Filters: site (host name), since (a date, an ISO time or an age such as 24h: arrival
    time), kind (article, listing, forum...), method (page, hybrid-diffpost...),
    duplicates (also the duplicates found on arrival). q is a full-text query (as feedsift
    search: best match first, with a score and a snippet; not with kind or method).
    limit and offset page the answer; total counts every match.
    """
    wanted, query = article_filter(request.query_params)
    articles, total = await find_articles(services_of(request), wanted, query)
    page = {"limit": wanted.limit, "offset": wanted.offset, "total": total}
    return JSONResponse({**page, "articles": articles})


async def get_article(request: Request) -> Response:
    """One stored article: where and when it was stored, and the whole article record."""
    return JSONResponse(_stored(await read_article(request)))


def article_filter(params: QueryParams) -> tuple[ArticleFilter, str | None]:
    """The filter and page the query parameters ask for, and the full-text query if any."""
    check_known(params, ARTICLES_PARAMETERS)
    site = text(params, "site")
    wanted = ArticleFilter(
        site=site_key(site) if site else None, since=moment(params, "since"),
        kind=_kind(text(params, "kind")), method=text(params, "method"),
        duplicates=flag(params, "duplicates", False),
        limit=whole(params, "limit", DEFAULT_PAGE, (1, MAX_PAGE)),
        offset=whole(params, "offset", 0, (0, MAX_OFFSET)),
    )  # fmt: skip
    query = text(params, "q")
    if query is not None and (wanted.kind or wanted.method):
        raise ApiError(400, "kind and method do not combine with q: search, then filter")
    return wanted, query


async def find_articles(
    services: Services, wanted: ArticleFilter, query: str | None
) -> tuple[list[JsonValue], int]:
    """A page of the articles ``wanted`` selects (or of the best matches of ``query``) as
    JSON values, and how many match in all."""
    if query is None:
        return await services.in_store(partial(_listed, wanted=wanted))
    return await services.in_store(partial(_searched, wanted=wanted, query=query))


async def read_article(request: Request) -> StoredArticle:
    """The stored article of the path's ``{id}``; 404 when there is none."""
    article_id = path_id(request, "stored article")
    stored = await services_of(request).in_store(
        lambda store: article_by_id(store.connection, article_id)
    )
    if stored is None:
        raise ApiError(404, f"no stored article has the id {article_id}")
    return stored


def _kind(value: str | None) -> str | None:
    if value is not None and value.lower() not in KINDS:
        raise ApiError(400, f"kind={value!r} is not one of {', '.join(sorted(KINDS))}")
    return None if value is None else value.lower()


def _listed(store: Store, wanted: ArticleFilter) -> tuple[list[JsonValue], int]:
    summaries = article_summaries(store.connection, wanted)
    return [to_json(summary) for summary in summaries], count_articles(store.connection, wanted)


def _searched(
    store: Store, wanted: ArticleFilter, query: str
) -> tuple[list[JsonValue], int]:
    """A page of the best matches, as ``feedsift search`` ranks them."""
    search = SearchQuery(
        query, site=wanted.site, since=wanted.since, limit=wanted.offset + wanted.limit,
        duplicates=wanted.duplicates,
    )  # fmt: skip
    hits = store.fulltext.search(search)[wanted.offset :]
    return [_hit(hit) for hit in hits], store.fulltext.count(search)


def _hit(hit: SearchHit) -> JsonValue:
    """A search hit with the id under the same key as in a list."""
    values = to_json(hit)
    assert isinstance(values, dict)
    return {"id": values.pop("article_id"), **values}


def _stored(stored: StoredArticle) -> dict[str, JsonValue]:
    return {
        "id": stored.id, "site": stored.site, "url": stored.url,
        "extracted_at": to_json(stored.extracted_at), "duplicate_of": stored.duplicate_of,
        "near_duplicate_of": stored.near_duplicate_of, "article": article_to_dict(stored.article),
    }  # fmt: skip
