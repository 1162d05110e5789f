/*
 * Corpus replay driver: runs a fuzz target's LLVMFuzzerTestOneInput on every
 * file named on the command line (directories are read one level deep), so
 * the targets build with any compiler and the seeds run as a ctest. Each
 * input goes through an exact-size heap copy so ASan catches reads past it.
 * Built with -fsanitize=fuzzer instead, libFuzzer provides main().
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "read_file.h"

static int run_file(const char *path, size_t *count)
{
	size_t n;
	uint8_t *buf = read_file(path, &n);
	if (!buf) {
		perror(path);
		return 1;
	}
	uint8_t *exact = malloc(n ? n : 1);
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	(*count)++;
	return 0;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i], &count);
			continue;
		}
		struct dirent **names;
		int n = scandir(argv[i], &names, NULL, alphasort);
		for (int k = 0; k < n; k++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
			if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
				bad |= run_file(path, &count);
			free(names[k]);
		}
		free(names);
	}
	printf("%s: %zu inputs replayed\n", argv[0], count);
	return bad ? 1 : count ? 0 : 2;
}
