# The relevance harness (issue 24): bench/relevance, docs/RELEVANCE.md.
#
#   make bench-relevance     build the corpora if needed (man pages, Python and PostgreSQL docs from
#                            Debian packages, installed by tools/deps-relevance.sh), then rank every
#                            system on them: MRR@10, nDCG@10, recall@1/10 (RELEVANCE_ARGS, e.g.
#                            --corpora=man --systems=fts5,cache:* --queries=200 --write-docs)
#
# Not part of make test. RELEVANCE_CACHE=/path/to/js/cache/index.js measures another cache build.
.PHONY: bench-relevance deps-relevance
RELEVANCE_ARGS ?=
deps-relevance:
	bash tools/deps-relevance.sh
bench-relevance: deps-relevance $(BUILD)/memdomain.wasm node_modules/.deps-npm
	node --max-old-space-size=8192 bench/relevance/run.mjs $(RELEVANCE_ARGS)
