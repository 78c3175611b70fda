{
  "targets": [
    {
      "target_name": "procctl",
      "sources": ["src/native/procctl.c", "src/native/spawn-detached.c", "src/native/reaper.c"],
      "cflags": ["-Wall", "-Wextra", "-O2"],
      "defines": ["NAPI_VERSION=8"]
    },
    {
      "target_name": "no-utmp",
      "type": "shared_library",
      "product_name": "genswarms-no-utmp",
      "sources": ["src/native/no-utmp.c"],
      "cflags": ["-Wall", "-Wextra", "-O2"]
    }
  ]
}
