// The system's Brotli encoder (Debian: libbrotli-dev), for the web app's files.
#include <brotli/encode.h>
