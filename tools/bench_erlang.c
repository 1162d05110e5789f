/*
 * megaco-bench --compare-erlang: runs tools/erl/megaco-bench.escript (Erlang
 * megaco over the same corpus files, same method) and reads its JSON rows
 * back, so one table can show both sides and their ratios.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "megaco_bench.h"

extern char **environ;

#define SCRIPT_REL "tools/erl/megaco-bench.escript"

static int readable(const char *p) { return access(p, R_OK) == 0; }

const char *bench_erlang_script(const char *explicit_path, const char *corpus_dir,
                                const char *argv0, char *buf, size_t cap)
{
	if (explicit_path) {
		snprintf(buf, cap, "%s", explicit_path);
		return readable(buf) ? buf : NULL;
	}
	/* The corpus of a source tree sits next to its tools/ folder. */
	if (corpus_dir) {
		snprintf(buf, cap, "%s/../%s", corpus_dir, SCRIPT_REL);
		if (readable(buf))
			return buf;
	}
	/* else as the corpus is found; installed, the script sits beside its corpus */
	return bench_find_shipped(argv0, SCRIPT_REL, "megaco-bench.escript", readable, buf, cap);
}

/* Is prog on PATH? */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX];
	if (!path)
		return 0;
	while (*path) {
		size_t n = strcspn(path, ":");
		snprintf(dir, sizeof dir, "%.*s/%s", (int)n, n ? path : ".", prog);
		if (access(dir, X_OK) == 0)
			return 1;
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

static row_status status_from(const char *s)
{
	if (!strcmp(s, "ok"))
		return ROW_OK;
	if (!strcmp(s, "unavailable"))
		return ROW_UNAVAILABLE;
	return ROW_FAILED;
}

static void host_from(const ynode *m, bench_host *h)
{
	memset(h, 0, sizeof *h);
	for (size_t i = 0; m && m->kind == YNODE_MAP && i + 1 < m->n; i += 2)
		if (m->kids[i + 1]->kind == YNODE_SCALAR)
			bench_host_add(h, m->kids[i]->str, m->kids[i + 1]->str);
}

int bench_json_read(const char *text, size_t len, bench_host *host, bench_row **rows,
                    size_t *nrows, char *why, size_t whycap)
{
	char ywhy[200];
	ynode *root = ynode_parse(text, len, ywhy, sizeof ywhy);
	if (!root) {
		snprintf(why, whycap, "not valid JSON: %s", ywhy);
		return -1;
	}
	const ynode *rs = ynode_get(root, "rows");
	if (!rs || rs->kind != YNODE_SEQ) {
		snprintf(why, whycap, "JSON has no \"rows\" list");
		ynode_free(root);
		return -1;
	}
	host_from(ynode_get(root, "host"), host);
	*rows = calloc(rs->n ? rs->n : 1, sizeof **rows);
	if (!*rows) {
		ynode_free(root);
		snprintf(why, whycap, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < rs->n; i++) {
		const ynode *m = rs->kids[i];
		bench_row *r = &(*rows)[i];
		snprintf(r->impl, sizeof r->impl, "%s", ynode_str(m, "impl", "erlang"));
		snprintf(r->codec, sizeof r->codec, "%s", ynode_str(m, "codec", "?"));
		snprintf(r->config, sizeof r->config, "%s", ynode_str(m, "config", ""));
		snprintf(r->error, sizeof r->error, "%s", ynode_str(m, "error", ""));
		r->status = status_from(ynode_str(m, "status", "failed"));
		r->messages = (size_t)ynode_num(m, "messages", 0);
		r->size = ynode_num(m, "size", 0);
		r->encode_ns = ynode_num(m, "encode_us", 0) * 1e3;
		r->decode_ns = ynode_num(m, "decode_us", 0) * 1e3;
		r->total_ns = ynode_num(m, "total_us", 0) * 1e3;
		r->msgs_per_s = ynode_num(m, "msgs_per_s", 0);
		r->threads = (unsigned)ynode_num(m, "threads", 1);
	}
	*nrows = rs->n;
	ynode_free(root);
	return 0;
}

int bench_erlang_run(const char *script, const bench_report *r, const char *codecs,
                     unsigned repeat, int progress, bench_erlang_out *out_rows, char *why,
                     size_t whycap)
{
	if (!on_path("escript")) {
		snprintf(why, whycap,
		         "escript not found on PATH: --compare-erlang needs Erlang/OTP with megaco "
		         "(Debian: erlang-base erlang-megaco erlang-asn1)");
		return -1;
	}
	char min_time[32], repeat_s[16];
	snprintf(min_time, sizeof min_time, "%.6f", r->min_time);
	snprintf(repeat_s, sizeof repeat_s, "%u", repeat);
	const char *argv[20];
	int a = 0;
	argv[a++] = "escript";
	argv[a++] = script;
	argv[a++] = "--corpus";
	argv[a++] = r->corpus_dir;
	argv[a++] = "--set";
	argv[a++] = r->set;
	argv[a++] = "--min-time";
	argv[a++] = min_time;
	argv[a++] = "--repeat";
	argv[a++] = repeat_s;
	if (r->glob) {
		argv[a++] = "--messages";
		argv[a++] = r->glob;
	}
	if (codecs) {
		argv[a++] = "--codecs";
		argv[a++] = codecs;
	}
	if (progress)
		argv[a++] = "--progress";
	argv[a++] = "--format";
	argv[a++] = "json";
	argv[a] = NULL;

	int fds[2];
	if (pipe(fds) < 0) {
		snprintf(why, whycap, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	pid_t pid;
	int rc = posix_spawnp(&pid, "escript", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		snprintf(why, whycap, "cannot run escript: %s", strerror(rc));
		return -1;
	}
	size_t len = 0;
	FILE *from = fdopen(fds[0], "r");
	char *out = from ? (char *)read_stream(from, &len) : NULL;
	if (from)
		fclose(from);
	else
		close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!out) {
		snprintf(why, whycap, "cannot read the escript's output");
		return -1;
	}
	int res = -1;
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1)) {
		snprintf(why, whycap, "%s exited with status %d (see its messages above)", script,
		         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		/* status 1: some Erlang row failed; its rows still say which */
		res = bench_json_read(out, len, &out_rows->host, &out_rows->rows, &out_rows->n, why,
		                      whycap);
	}
	free(out);
	return res;
}
