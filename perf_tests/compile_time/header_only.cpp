// Compile-time probe: the umbrella header alone.
#include <KokkosDTensor.hpp>
int main() { return 0; }
