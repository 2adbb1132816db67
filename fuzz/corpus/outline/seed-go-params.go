// Package tls negotiates parameters; its helpers take long lists of typed parameters.
package tls

// Short enough: the parameters keep their types.
func mutualVersion(isClient bool, peerVersions []uint16) (uint16, bool) {
	return 0, false
}

// Long: the parameters are named, the results stay.
func isSupportedSignatureAlgorithm(sigAlg SignatureScheme, supportedSignatureAlgorithms []SignatureScheme) bool {
	return false
}

type Config struct {
	Rand io.Reader
}

// A method of the type, with grouped and variadic parameters.
func (c *Config) writeKeyLog(label string, clientRandom, secret []byte, handlers ...func(line string) error) error {
	return nil
}
