// Compile-time probe: three ops on View<float**> and View<double*>.
#include <KokkosDTensor.hpp>
void draw(Kokkos::View<float**> v, Kokkos::View<double*> w) {
  KokkosDTensor::uniform_(v);
  KokkosDTensor::normal_(v, 0.0, 0.02);
  KokkosDTensor::bernoulli_(w, 0.3);
}
int main() { return 0; }
