# The boundary protocol's own checks: the signature table against the C
# definitions, the builds' exports and the glue's calls (Jest,
# tests/js/boundary.test.js, part of test-js), and the generated constants.
.PHONY: test-boundary
test-boundary:
	node tools/gen-constants.mjs --check
TEST_EXTRA += test-boundary
