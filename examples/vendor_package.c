/*
 * vendor_package: transcode a message that uses a vendor's own package
 * between text and BER. BER carries package items as numbers, text as
 * names; a registry holding the vendor's package maps one to the other.
 *   vendor_package [FILE]   (default: the message below)
 * The package is registered through the C API, which every build has;
 * builds with YAML support can load the same from a file instead
 * (megaco_registry_load_yaml, format of data/packages.yaml).
 */
#include <stdio.h>
#include <string.h>

#include <megaco/megaco.h>

static const char default_message[] =
	"MEGACO/1 [123.123.123.4]:55555\n"
	"Transaction = 10003 {\n"
	"  Context = 2000 {\n"
	"    Modify = 11111111/00000000/00000001 {\n"
	"      Media { Stream = 1 { LocalControl { Mode = SendReceive, vend/mode = 2 } } },\n"
	"      Events = 2223 { vend/hook { side = 1 } }\n"
	"    }\n"
	"  }\n"
	"}\n";

/* Package "vend" (0xFE01): property mode, event hook with parameter side. */
static int add_vendor_package(megaco_registry *reg)
{
	int rc = megaco_registry_add_package(reg, "vend", 0xFE01, 1, NULL);
	if (rc == MEGACO_OK)
		rc = megaco_registry_add_item(reg, "vend", MEGACO_ITEM_PROPERTY, "mode", 0x0001);
	if (rc == MEGACO_OK)
		rc = megaco_registry_add_item(reg, "vend", MEGACO_ITEM_EVENT, "hook", 0x0010);
	if (rc == MEGACO_OK)
		rc = megaco_registry_add_parameter(reg, "vend", MEGACO_ITEM_EVENT, "hook", "side", 0x0001);
	return rc;
}

/* Decodes in (any encoding) and encodes it as `to` into out (cap bytes). */
static int transcode(const void *in, size_t len, megaco_encoding to, const megaco_options *opts,
                     unsigned char *out, size_t cap, size_t *out_len, megaco_error *err)
{
	megaco_message *msg = NULL;
	int rc = megaco_decode(MEGACO_ENC_AUTO, in, len, opts, &msg, err);
	if (rc == MEGACO_OK)
		rc = megaco_encode(msg, to, opts, out, cap, out_len, err);
	megaco_message_free(msg);
	return rc;
}

int main(int argc, char **argv)
{
	static unsigned char text[1 << 16];
	size_t text_len = sizeof default_message - 1;
	memcpy(text, default_message, text_len);
	if (argc == 2) {
		FILE *f = fopen(argv[1], "rb");
		if (!f) {
			perror(argv[1]);
			return 2;
		}
		text_len = fread(text, 1, sizeof text, f);
		int whole = feof(f) && !ferror(f);
		fclose(f);
		if (!whole) {
			fprintf(stderr, "%s: unreadable or over 64 KiB\n", argv[1]);
			return 2;
		}
	} else if (argc > 2) {
		fprintf(stderr, "usage: vendor_package [FILE]\n");
		return 2;
	}

	unsigned char ber[4096], back[1 << 16];
	size_t ber_len, back_len;
	megaco_error err;

	/* The built-in registry has only the standard packages: no binary form. */
	int rc = transcode(text, text_len, MEGACO_ENC_BER, NULL, ber, sizeof ber, &ber_len, &err);
	if (rc == MEGACO_OK)
		printf("without the package: encoded (the message uses no vendor names)\n");
	else
		printf("without the package: %s\n  %s\n", megaco_strerror(rc), err.message);

	megaco_registry *reg = NULL;
	if (megaco_registry_new(0, NULL, &reg) != MEGACO_OK) /* base packages + ours */
		return 1;
	if ((rc = add_vendor_package(reg)) != MEGACO_OK) {
		fprintf(stderr, "registering vend: %s\n", megaco_strerror(rc));
		megaco_registry_free(reg);
		return 1;
	}
	megaco_options opts;
	megaco_options_init(&opts);
	opts.registry = reg;

	/* text -> BER -> compact text, both with the registry */
	rc = transcode(text, text_len, MEGACO_ENC_BER, &opts, ber, sizeof ber, &ber_len, &err);
	if (rc == MEGACO_OK)
		rc = transcode(ber, ber_len, MEGACO_ENC_COMPACT, &opts, back, sizeof back - 1,
		               &back_len, &err);
	megaco_registry_free(reg);
	if (rc != MEGACO_OK) {
		fprintf(stderr, "with the package: %s: %s\n", megaco_strerror(rc), err.message);
		return 1;
	}
	printf("with the package: %zu bytes of BER:\n", ber_len);
	for (size_t i = 0; i < ber_len; i++)
		printf("%02x%c", ber[i], i + 1 == ber_len || i % 16 == 15 ? '\n' : ' ');
	back[back_len] = '\0';
	printf("and back to text:\n%s\n", (char *)back);
	return 0;
}
