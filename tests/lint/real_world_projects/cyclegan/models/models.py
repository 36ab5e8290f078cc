# SOURCE: junyanz/pytorch-CycleGAN-and-pix2pix@3b1da87059fb608eff09a0581ea9ee76a1ade517 models/models.py (BSD licence of the repository; the whole file)
# coding: utf-8
def create_model(opt):
    model = None
    print(opt.model)
    if opt.model == 'cycle_gan':
        assert(opt.dataset_mode == 'unaligned')
        from .cycle_gan_model import CycleGANModel
        model = CycleGANModel()
    elif opt.model == 'pix2pix':
        assert(opt.dataset_mode == 'aligned')
        from .pix2pix_model import Pix2PixModel
        model = Pix2PixModel()
    elif opt.model == 'test':
        assert(opt.dataset_mode == 'single')
        from .test_model import TestModel
        model = TestModel()
    else:
        raise ValueError("Model [{}] not recognized.".format(opt.model))
    model.initialize(opt)
    print("model [{}] was created".format(model.name()))
    return model
