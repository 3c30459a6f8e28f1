# The adapters to the JavaScript AI stack (issue 42), against the real packages from the npm
# registry (package.json's devDependencies; no mocks):
#
#   make test-adapters   tests/adapters/*.test.mjs: memdomain/langchain (VectorStore, retriever,
#                        LangChain's vector-store checklist ported case by case, a chain), memdomain/
#                        langgraph (BaseStore, an agent that remembers across threads) and the MCP
#                        memory server memdomain-mcp (driven by the SDK's own client over stdio)
.PHONY: test-adapters
test-adapters: $(BUILD)/memdomain.wasm node_modules/.deps-npm
	@rc=0; for t in tests/adapters/*.test.mjs; do MEMDOMAIN_BUILD=$(abspath $(BUILD))/ node $$t || rc=1; done; exit $$rc

TEST_EXTRA += test-adapters
