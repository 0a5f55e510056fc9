/* The same pinned request as floor.swift in C: the floor of any program on this libcurl.
   Usage: floor-c URL HOST:PORT:ADDRESS CAFILE   (the body goes to stdout) */
#include <curl/curl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fputs("usage: floor-c URL HOST:PORT:ADDRESS CAFILE\n", stderr);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    CURL *handle = curl_easy_init();
    if (!handle) return 2;
    struct curl_slist *resolve = curl_slist_append(NULL, argv[2]);
    curl_easy_setopt(handle, CURLOPT_URL, argv[1]);
    curl_easy_setopt(handle, CURLOPT_RESOLVE, resolve);
    curl_easy_setopt(handle, CURLOPT_CAINFO, argv[3]);
    CURLcode result = curl_easy_perform(handle);
    fflush(stdout);
    _exit(result == CURLE_OK ? 0 : (int)result);
}
