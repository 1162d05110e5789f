/*
 * Interop with Erlang/OTP: every corpus message, decoded by libmegaco from
 * each of the five encodings and encoded to each of the five, must decode in
 * Erlang to the same record as the reference file of the target encoding
 * (tests/erl/megaco-peer.escript decode-compare-dir, one Erlang VM for all
 * 25 directories). This checks meaning, not bytes, so it also holds where a
 * correct encoder could legitimately choose other bytes (text layout, ROOT's
 * case). APER is read by Erlang megaco's own per codec (v3 module). Text ->
 * BER/PER/APER is the transcoding path: names mapped to binary IDs. Skipped
 * without escript.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static corpus *C;
static char tmpdir[512];

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void encode_to(megaco_message *m, megaco_encoding enc, const char *dir, const char *name)
{
	void *out = NULL;
	size_t len = 0;
	megaco_error err;
	if (megaco_encode_alloc(m, enc, NULL, &out, &len, &err) != MEGACO_OK)
		fail_msg("%s to %s: %s", name, megaco_encoding_name(enc), err.message);
	char path[1024];
	snprintf(path, sizeof path, "%s/%s/%s", tmpdir, dir, name);
	write_file(path, out, len);
	megaco_buffer_free(out, NULL);
}

#define NENC 5
static const megaco_encoding encs[NENC] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT, MEGACO_ENC_BER,
	                                    MEGACO_ENC_PER, MEGACO_ENC_APER };

/*
 * Runs the peer once over every <to>-from-<from> directory against the
 * corpus directory of <to>; fails on any mismatch, or unless each directory
 * reports 149 files compared.
 */
static void peer_compare_all(void)
{
	const char *src = getenv("MEGACO_SOURCE_DIR");
	const char *bin = getenv("MEGACO_BINARY_DIR");
	char cmd[16384];
	int n = snprintf(cmd, sizeof cmd,
	                 "escript '%s/tests/erl/megaco-peer.escript' --asn1 "
	                 "'%s/asn1/MEDIA-GATEWAY-CONTROL-v3.asn' --cache '%s/peer-cache' "
	                 "decode-compare-dir",
	                 src ? src : ".", src ? src : ".", bin ? bin : tmpdir);
	for (size_t f = 0; f < NENC; f++)
		for (size_t t = 0; t < NENC; t++) {
			const char *to = megaco_encoding_name(encs[t]);
			n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s '%s/%s-from-%s' '%s/%s'", to,
			              tmpdir, to, megaco_encoding_name(encs[f]), C->dir, to);
			assert_true((size_t)n < sizeof cmd);
		}
	snprintf(cmd + n, sizeof cmd - (size_t)n, " 2>&1");
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[1024], last[1024] = "";
	unsigned dirs_ok = 0;
	while (fgets(line, sizeof line, p)) {
		fputs(line, stdout); /* mismatch lines, a summary per directory, the totals */
		const char *tail = strstr(line, ": 149 compared, 0 mismatched\n");
		dirs_ok += tail && strstr(line, tmpdir) == line;
		snprintf(last, sizeof last, "%s", line);
	}
	int status = pclose(p);
	unsigned compared = 0, mismatched = 0;
	if (sscanf(last, "%u compared, %u mismatched", &compared, &mismatched) != 2)
		fail_msg("no summary from megaco-peer (exit status %d): %s", status, last);
	if (mismatched || status != 0)
		fail_msg("%u of %u mismatched (exit status %d)", mismatched, compared, status);
	assert_int_equal(compared, NENC * NENC * 149);
	assert_int_equal(dirs_ok, NENC * NENC);
}

static void test_erlang_agrees(void **state)
{
	(void)state;
	if (!on_path("escript")) {
		printf("# escript (Erlang/OTP) is not on PATH: skipping the interop comparison\n");
		skip();
	}

	for (size_t f = 0; f < NENC; f++)
		for (size_t t = 0; t < NENC; t++) {
			char d[1024];
			snprintf(d, sizeof d, "%s/%s-from-%s", tmpdir, megaco_encoding_name(encs[t]),
			         megaco_encoding_name(encs[f]));
			assert_int_equal(mkdir(d, 0700), 0);
		}
	size_t n = 0;
	for (size_t i = 0; i < C->count; i++) {
		corpus_entry *e = &C->entries[i];
		if (strcmp(e->set, "time_test"))
			continue;
		for (size_t f = 0; f < NENC; f++) {
			size_t len;
			unsigned char *b = read_file(e->path[encs[f] - 1], &len);
			assert_non_null(b);
			megaco_message *m = NULL;
			megaco_error err;
			if (megaco_decode(encs[f], b, len, NULL, &m, &err) != MEGACO_OK)
				fail_msg("%s: %s", e->path[encs[f] - 1], err.message);
			for (size_t t = 0; t < NENC; t++) {
				char dir[64];
				snprintf(dir, sizeof dir, "%s-from-%s", megaco_encoding_name(encs[t]),
				         megaco_encoding_name(encs[f]));
				encode_to(m, encs[t], dir, e->name);
			}
			megaco_message_free(m);
			free(b);
		}
		n++;
	}
	assert_int_equal(n, 149);
	peer_compare_all();
}

/* Removes tmpdir: two levels, directories of plain files. */
static void remove_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (depth < 2)
			remove_tree(path, depth + 1);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int cleanup(void **state)
{
	(void)state;
	remove_tree(tmpdir, 0);
	return 0;
}

int main(int argc, char **argv)
{
	C = corpus_load(corpus_dir_from_args(argc, argv));
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/megaco-interop-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return 2;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_erlang_agrees),
	};
	int rc = cmocka_run_group_tests(tests, NULL, cleanup);
	corpus_free(C);
	return rc;
}
