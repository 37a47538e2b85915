package ssl

import (
	"crypto/x509"
	"math/big"
	"testing"
	"time"
)

// TestJavaNames: signature algorithms are named as Java names them, as
// Spring's SslInfo shows them.
func TestJavaNames(t *testing.T) {
	for a, want := range map[x509.SignatureAlgorithm]string{
		x509.SHA256WithRSA: "SHA256withRSA", x509.ECDSAWithSHA384: "SHA384withECDSA",
		x509.SHA256WithRSAPSS: "RSASSA-PSS", x509.PureEd25519: "Ed25519",
	} {
		if got := javaSignatureName(a); got != want {
			t.Errorf("javaSignatureName(%v) = %s, want %s", a, got, want)
		}
	}
}

// TestChainStatus: a chain is as bad as its worst certificate, in
// SslMeterBinder's order.
func TestChainStatus(t *testing.T) {
	now := time.Now()
	cert := func(start, end time.Duration) *x509.Certificate {
		return &x509.Certificate{SerialNumber: bigOne(), NotBefore: now.Add(start), NotAfter: now.Add(end), Version: 3}
	}
	for _, c := range []struct {
		certs []*x509.Certificate
		want  string
		valid bool
	}{
		{[]*x509.Certificate{cert(-time.Hour, 30*24*time.Hour)}, Valid, true},
		{[]*x509.Certificate{cert(-time.Hour, 30*24*time.Hour), cert(-time.Hour, 3*24*time.Hour)}, WillExpireSoon, true},
		{[]*x509.Certificate{cert(-time.Hour, 3*24*time.Hour), cert(-48*time.Hour, -time.Hour)}, Expired, false},
		{[]*x509.Certificate{cert(time.Hour, 30*24*time.Hour)}, NotYetValid, false},
	} {
		chain := DescribeChain("ssl", c.certs, now, 14*24*time.Hour)
		if chain.Status() != c.want || chain.Valid() != c.valid {
			t.Errorf("%d certificates: %s (valid %v), want %s (%v)", len(c.certs), chain.Status(), chain.Valid(), c.want, c.valid)
		}
	}
}

func bigOne() *big.Int { return big.NewInt(1) }
