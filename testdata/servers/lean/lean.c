/*
 * lean is the scale server's surface served by a process that costs almost
 * nothing to start: mcplens's connect benchmark uses it to measure how
 * mcplens connects fifty servers at once, apart from what fifty Go runtimes
 * cost to start on the machine (a Go server's start is ~6 ms of CPU where
 * this one's is ~1.5 ms).
 *
 *   lean LABEL DELAY_MS TOOLS_FILE
 *
 * TOOLS_FILE holds the JSON array of tools/list rows. Each line on stdin is
 * one JSON-RPC message as an MCP client writes it (compact, "id" before
 * "params"); the server answers initialize after DELAY_MS, tools/list with
 * the rows, tools/call with the tool's name, ping with {}, and any other
 * request with an error. It exits when stdin ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *label;
static long delay_ms;
static char *tools;

/* member copies the raw value of the first "key": member of line into out:
 * a number, or a string without escapes, which is all a client sends as an
 * id or a method. It returns 0 when there is none. */
static int member(const char *line, const char *key, char *out, size_t size) {
	char pat[32];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	size_t n = 0;
	if (*p == '"') {
		const char *end = strchr(p + 1, '"');
		if (!end)
			return 0;
		n = end - p + 1;
	} else {
		n = strcspn(p, ",}");
	}
	if (n == 0 || n >= size)
		return 0;
	memcpy(out, p, n);
	out[n] = 0;
	return 1;
}

static char *slurp(const char *path) {
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc(n + 1);
	if (b && fread(b, 1, n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = 0;
	fclose(f);
	return b;
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: lean LABEL DELAY_MS TOOLS_FILE\n");
		return 2;
	}
	label = argv[1];
	delay_ms = atol(argv[2]);
	if (!(tools = slurp(argv[3]))) {
		fprintf(stderr, "lean: cannot read %s\n", argv[3]);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	char id[128], method[128], name[256];
	while (getline(&line, &cap, stdin) > 0) {
		if (!member(line, "id", id, sizeof id) || !strcmp(id, "null"))
			continue; /* a notification */
		if (!member(line, "method", method, sizeof method))
			continue; /* an answer to a request of ours: there are none */
		if (!strcmp(method, "\"initialize\"")) {
			struct timespec d = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
			nanosleep(&d, NULL);
			printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-11-25\","
			       "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"%s\",\"version\":\"1.0.0\"}}}\n",
			       id, label);
		} else if (!strcmp(method, "\"tools/list\"")) {
			printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":%s}}\n", id, tools);
		} else if (!strcmp(method, "\"tools/call\"") && member(line, "name", name, sizeof name)) {
			name[strlen(name) - 1] = 0; /* the closing quote */
			printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\","
			       "\"text\":\"%s received tool %s\"}]}}\n", id, label, name + 1);
		} else if (!strcmp(method, "\"ping\"")) {
			printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n", id);
		} else {
			printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"method not found\"}}\n", id);
		}
		fflush(stdout);
	}
	return 0;
}
