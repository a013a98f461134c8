# Sourced by ./landing, ./verify and .ci/run: selects a JDK that can build and run Java 21 code.
# The machine's default JDK is 17; Landing Ledger targets Lambda's java21 runtime, so the build
# uses the Temurin 25 JDK the image ships (release 21 bytecode), or any JDK >= 21 in JAVA_HOME.
# A JDK's feature release, from its release file when it has one: starting a JVM only to ask costs 80 ms on every
# ./landing command.
landing_java_major() {
  local version=""
  [ -f "$1/release" ] && version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1)
  if [ -z "$version" ]; then
    version=$("$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.specification.version = //p' | head -n 1)
  fi
  echo "$version"
}
landing_select_jdk() {
  local candidate major
  for candidate in "${LANDING_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 \
      /usr/lib/jvm/temurin-25-jdk-arm64 /usr/lib/jvm/temurin-21-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-arm64 \
      /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    major=$(landing_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "landing: no JDK 21 or newer found. Install one (e.g. Temurin 25) and set JAVA_HOME or LANDING_JAVA_HOME." >&2
  return 1
}
landing_select_jdk
# Maven 3.8's bundled Guava calls sun.misc.Unsafe, which JDK 24+ warns about on every build.
if [ "$(landing_java_major "$JAVA_HOME")" -ge 24 ] 2>/dev/null; then
  case " ${MAVEN_OPTS:-} " in *sun-misc-unsafe-memory-access*) ;; *)
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac
fi
