"""The metadata stage: title candidates, authors, dates, tags, language and URLs of a page.

>>> from feedsift.parsing.page import parse_page
>>> meta = read_metadata(parse_page('<html lang="en"><head><title>Hi | Site</title></head>'
...                                 '<body><h1>Hi</h1></body></html>'))
>>> meta.title, meta.language
('Hi', 'en')
"""

from feedsift.metadata.read import read_metadata
from feedsift.metadata.record import PageMetadata, TitleCandidate

__all__ = ["PageMetadata", "TitleCandidate", "read_metadata"]
