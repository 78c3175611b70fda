{
  "targets": [
    {
      "target_name": "procctl",
      "sources": ["src/native/procctl.c"],
      "cflags": ["-Wall", "-Wextra", "-O2"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
