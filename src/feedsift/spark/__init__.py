"""``feedsift spark``: the pages of web archives extracted site by site on Apache Spark.

Needs the ``spark`` extra (``pip install 'feedsift[spark]'``: PySpark, and ``tld`` for the
Public Suffix List). The stages, each in its own module:

* :mod:`feedsift.spark.sites`: the registered domain that names a record's site;
* :mod:`feedsift.spark.records`: what passes between the stages (:class:`RecordKey`,
  :class:`ArticleRow`);
* :mod:`feedsift.spark.reading`: a WARC file's HTML pages and the items of its feeds, each
  keyed by site, host and capture time (runs in the executors);
* :mod:`feedsift.spark.hosts`: one partition's records, host after host in time order,
  through the site-level methods or the page level (runs in the executors);
* :mod:`feedsift.spark.tally`: what a run met, added up across the executors;
* :mod:`feedsift.spark.job`: the Spark session and the job that wires the stages (the
  only module that imports PySpark).

Spark does the distribution: the files are read in parallel, the records shuffled by site
and sorted within their partition, and the Parquet output written by Spark's own writer.
"""

from feedsift.spark.records import ARTICLE_COLUMNS, ArticleRow, RecordKey

__all__ = ["ARTICLE_COLUMNS", "ArticleRow", "RecordKey"]
