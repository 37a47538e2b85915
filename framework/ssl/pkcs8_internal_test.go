package ssl

import (
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/springport/greeter/framework/testing/testpki"
)

// TestDecryptPKCS8: the encrypted PKCS#8 keys that OpenSSL 3 writes
// (AES-256 and AES-128 with HMAC-SHA256, 3DES with HMAC-SHA1) decrypt
// with their password; a wrong password is errWrongPassword; PBES1 is
// refused saying how to convert. Without openssl, the key testpki
// encrypts in the same way (AES-256, HMAC-SHA256) is read.
func TestDecryptPKCS8(t *testing.T) {
	dir := t.TempDir()
	_, keyPEM := testpki.NewCA(t, "CA").Server(t, "server")
	plain := testpki.WriteFile(t, dir, "plain.key", keyPEM)
	encrypted := map[string][]byte{}
	if testpki.Tool("openssl") == "" {
		t.Log("openssl is not installed: only testpki's encryption is read")
		encrypted["testpki AES-256"] = testpki.EncryptedKey(t, dir, keyPEM, "pa55word")
	} else {
		for name, args := range map[string][]string{
			"aes-256-cbc":                 {"-v2", "aes-256-cbc"},
			"aes-128-cbc":                 {"-v2", "aes-128-cbc"},
			"des3, hmacWithSHA1":          {"-v2", "des3", "-v2prf", "hmacWithSHA1"},
			"aes-256-cbc, hmacWithSHA512": {"-v2", "aes-256-cbc", "-v2prf", "hmacWithSHA512"},
			"PBES1":                       {"-v1", "PBE-SHA1-3DES"},
		} {
			out := filepath.Join(dir, "out.key")
			cmd := exec.Command("openssl", append([]string{"pkcs8", "-topk8", "-in", plain, "-out", out, "-passout", "pass:pa55word"}, args...)...)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("openssl %v: %v\n%s", args, err, b)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			encrypted[name] = data
		}
	}
	want, _ := pem.Decode(keyPEM)
	for name, data := range encrypted {
		block, _ := pem.Decode(data)
		if block == nil || block.Type != "ENCRYPTED PRIVATE KEY" {
			t.Fatalf("%s: not an encrypted PKCS#8 key:\n%s", name, data)
		}
		der, err := decryptPKCS8(block.Bytes, "pa55word")
		if name == "PBES1" {
			if err == nil || err == errWrongPassword {
				t.Errorf("%s: %v, want refused as not PBES2", name, err)
			}
			continue
		}
		if err != nil || string(der) != string(want.Bytes) {
			t.Errorf("%s: %v, want the key", name, err)
		}
		if _, err := decryptPKCS8(block.Bytes, "wrong"); err != errWrongPassword {
			t.Errorf("%s with a wrong password: %v, want errWrongPassword", name, err)
		}
	}
}
