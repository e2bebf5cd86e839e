// Verifies a webhook delivery: Go 1.19+, standard library only.
// Usage: go run verify.go <raw-body-file> <X-Service-Signature-V2> <X-Service-Signature> <secret> [<secret>...]
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

const toleranceSeconds = 300

func digest(secret string, parts ...[]byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	for _, part := range parts {
		mac.Write(part)
	}
	return hex.EncodeToString(mac.Sum(nil))
}

// VerifyV2 checks X-Service-Signature-V2: t=<unix seconds>,v1=<hex>[,v1=<hex>]; true when a v1 matches and t is fresh.
func VerifyV2(rawBody []byte, header, secret string, now time.Time) bool {
	var stamps, signatures []string
	for _, part := range strings.Split(header, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch name {
		case "t":
			stamps = append(stamps, value)
		case "v1":
			signatures = append(signatures, value)
		}
	}
	if len(stamps) != 1 || len(signatures) == 0 {
		return false
	}
	stamp, err := strconv.ParseInt(stamps[0], 10, 64)
	if err != nil || stamp < 0 {
		return false
	}
	expected := digest(secret, []byte(stamps[0]+"."), rawBody)
	matched := false
	for _, signature := range signatures {
		if hmac.Equal([]byte(signature), []byte(expected)) {
			matched = true
		}
	}
	age := now.Unix() - stamp
	return matched && age <= toleranceSeconds && age >= -toleranceSeconds
}

// VerifyBodyOnly checks X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>; it carries no time, so a replay passes it.
func VerifyBodyOnly(rawBody []byte, header, secret string) bool {
	return hmac.Equal([]byte(strings.TrimSpace(header)), []byte("sha256="+digest(secret, rawBody)))
}

func main() {
	rawBody, err := os.ReadFile(os.Args[1]) // the exact bytes received: never a re-serialised JSON
	if err != nil {
		panic(err)
	}
	now := time.Now()
	if seconds, err := strconv.ParseInt(os.Getenv("NOW_SECONDS"), 10, 64); err == nil {
		now = time.Unix(seconds, 0)
	}
	v2, bodyOnly := false, false
	for _, secret := range os.Args[4:] { // during a rotation, configure both the old and the new secret
		v2 = v2 || VerifyV2(rawBody, os.Args[2], secret, now)
		bodyOnly = bodyOnly || VerifyBodyOnly(rawBody, os.Args[3], secret)
	}
	fmt.Printf("{\"v2\":%t,\"bodyOnly\":%t}\n", v2, bodyOnly)
	if !v2 {
		os.Exit(1)
	}
}
