/*
 * Interop with Erlang/OTP: every corpus message, decoded by libmegaco from
 * each of the four encodings and encoded to each of the four, must decode in
 * Erlang to the same record as the reference file of the target encoding
 * (tests/erl/megaco-peer.escript decode-compare-dir). This checks meaning,
 * not bytes, so it also holds where a correct encoder could legitimately
 * choose other bytes (text layout, ROOT's case). Text -> BER/PER is the
 * transcoding path: names mapped to binary IDs. Skipped without escript.
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

/* Runs the peer on our directory against the corpus one; fails on any mismatch. */
static void peer_compare(const char *enc, const char *ours, const char *ref)
{
	const char *src = getenv("MEGACO_SOURCE_DIR");
	const char *bin = getenv("MEGACO_BINARY_DIR");
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
	         "escript '%s/tests/erl/megaco-peer.escript' --asn1 '%s/asn1/MEDIA-GATEWAY-CONTROL-v3.asn'"
	         " --cache '%s/peer-cache' decode-compare-dir %s '%s/%s' '%s/%s' 2>&1",
	         src ? src : ".", src ? src : ".", bin ? bin : tmpdir, enc, tmpdir, ours, C->dir, ref);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[1024], last[1024] = "";
	while (fgets(line, sizeof line, p)) {
		fputs(line, stdout); /* mismatch lines, then the summary */
		snprintf(last, sizeof last, "%s", line);
	}
	int status = pclose(p);
	unsigned compared = 0, mismatched = 0;
	if (sscanf(last, "%u compared, %u mismatched", &compared, &mismatched) != 2)
		fail_msg("%s: no summary from megaco-peer (exit status %d): %s", ours, status, last);
	if (mismatched || status != 0)
		fail_msg("%s: %u of %u mismatched (exit status %d)", ours, mismatched, compared, status);
	assert_int_equal(compared, 149);
}

static void test_erlang_agrees(void **state)
{
	(void)state;
	if (!on_path("escript")) {
		printf("# escript (Erlang/OTP) is not on PATH: skipping the interop comparison\n");
		skip();
	}

	static const megaco_encoding encs[] = { MEGACO_ENC_PRETTY, MEGACO_ENC_COMPACT, MEGACO_ENC_BER,
		                                MEGACO_ENC_PER };
	for (size_t f = 0; f < 4; f++)
		for (size_t t = 0; t < 4; t++) {
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
		for (size_t f = 0; f < 4; f++) {
			size_t len;
			unsigned char *b = read_file(e->path[encs[f] - 1], &len);
			assert_non_null(b);
			megaco_message *m = NULL;
			megaco_error err;
			if (megaco_decode(encs[f], b, len, NULL, &m, &err) != MEGACO_OK)
				fail_msg("%s: %s", e->path[encs[f] - 1], err.message);
			for (size_t t = 0; t < 4; t++) {
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
	for (size_t f = 0; f < 4; f++)
		for (size_t t = 0; t < 4; t++) {
			const char *to = megaco_encoding_name(encs[t]);
			char dir[64];
			snprintf(dir, sizeof dir, "%s-from-%s", to, megaco_encoding_name(encs[f]));
			peer_compare(to, dir, to);
		}
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
