// Compile-time probe: one op on a View<float**>.
#include <KokkosDTensor.hpp>
void draw(Kokkos::View<float**> v) { KokkosDTensor::uniform_(v); }
int main() { return 0; }
